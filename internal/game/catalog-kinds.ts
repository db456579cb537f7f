// What each SpaceMolt call costs, shipped with Skipper: every v1 flat tool (public catalogue, server v0.490.1) and
// every v2 action (server v0.547.0 and v0.554.1, the newest public catalogue found: CoinAnole/spacemolt-cli
// src/generated/api-commands.ts; all in test/fixtures/spacemolt), as mutation (one per tick), free (changes
// something, no tick: auth, chat, log, notes, settings) or query. The fallback when the server's own tool list does
// not label a call's kind (classify.ts reads those labels first): one grouped tool mixes kinds, so without either a
// `spacemolt {action:"mine"}` could not be told from a `get_status`. The catalogues mark only mutation or not; which
// non-mutations write (free) is our reading of their names. v0.554.1 adds spacemolt_shipping `active` (a list of
// the player's live freight contracts, read as a query). v0.490's sell_ship stays listed: an older server may
// still offer it.
import type { CallKind } from '../shared/index.js';

export type KindTable = ReadonlyMap<string, CallKind>;

function table(lists: Partial<Record<CallKind, string>>): KindTable {
  const out = new Map<string, CallKind>();
  for (const [kind, names] of Object.entries(lists) as Array<[CallKind, string]>) {
    for (const name of names.split(/\s+/)) if (name) out.set(name, kind);
  }
  return out;
}

/** v1 (/mcp) tools by name, plus v2's action-less spacemolt_catalog. */
export const FLAT_KINDS: KindTable = table({
  mutation: `abandon_mission accept_mission attack build_base build_outpost buy buy_insurance buy_listed_ship
    buy_ship_license cancel_commission cancel_order cancel_ship_buy_order cancel_ship_listing cloak
    commission_ship complete_mission craft create_buy_order create_faction create_sell_order deploy_drone
    deposit_items distress_signal dock espionage faction_accept_ally faction_accept_invite faction_accept_peace
    faction_cancel_mission faction_create_buy_order faction_create_sell_order faction_declare_war
    faction_deposit_credits faction_deposit_items faction_invite faction_kick faction_post_mission
    faction_prepay_tax faction_promote faction_propose_ally faction_propose_peace faction_remove_ally
    faction_remove_enemy faction_scan_poi faction_set_enemy faction_submit_intel faction_submit_trade_intel
    faction_withdraw_credits faction_withdraw_invite faction_withdraw_items fleet forum_create_thread
    forum_delete_reply forum_delete_thread forum_reply forum_upvote hunt install_mod jettison join_faction jump
    leave_faction list_ship_for_sale load_drone loot_wreck mine modify_order name_ship place_ship_buy_order
    prepay_tax recall_drone recycle refit_ship refuel release_tow reload repair repair_module scan scrap_ship
    scrap_wreck self_destruct sell sell_ship_to_order sell_wreck send_gift set_home_base supply_commission
    survey_system switch_ship tow_wreck trade_accept trade_offer travel undock uninstall_mod unload_drone
    upload_drone_script use_item withdraw_items`,
  free: `battle captains_log_add captains_log_delete chat claim claim_insurance create_note decline_mission
    delete_note faction_create_role faction_decline_invite faction_delete_role faction_delete_room faction_edit
    faction_edit_role faction_write_room login logout mute_notifications petition register set_colors
    set_drone_name set_status subscribe_market subscribe_observation trade_cancel trade_decline
    unmute_notifications unsubscribe_market unsubscribe_observation write_note`,
  query: `analyze_market browse_ships captains_log_get captains_log_list catalog commission_quote commission_status
    completed_missions estimate_purchase facility faction_garages faction_get_invites faction_info
    faction_intel_status faction_list faction_list_missions faction_query_intel faction_query_trade_intel
    faction_rooms faction_trade_intel_status faction_visit_room find_route forum_get_thread forum_list
    get_achievements get_action_log get_active_missions get_base get_base_cost get_battle_log get_battle_status
    get_battle_summary get_cargo get_chat_history get_commands get_drone get_drones get_empire_info
    get_faction_achievements get_faction_tax_estimate get_guide get_insurance_quote get_map get_missions
    get_nearby get_notes get_notification_settings get_notifications get_poi get_ship get_skills get_status
    get_system get_system_agents get_tax_estimate get_trades get_version get_wrecks help inspect list_ships
    read_note search_systems spacemolt_catalog station view_completed_mission view_faction_storage
    view_insurance view_market view_orders view_ship_buy_orders view_storage`,
});

/** v2 (/mcp/v2) tools: the kind of each action. */
export const GROUPED_KINDS: Readonly<Record<string, KindTable>> = {
  spacemolt: table({
    mutation: `abandon_mission accept_mission attack buy cloak complete_mission craft distress_signal dock hunt
      install_mod jettison jump load_passenger mine prepay_tax recycle refuel repair repair_module scan
      self_destruct sell survey_system travel undock uninstall_mod unload_passenger use_item`,
    free: `decline_mission subscribe_observation unsubscribe_observation`,
    query: `completed_missions find_route get_achievements get_active_missions get_base get_cargo get_commands
      get_empire_info get_faction_achievements get_guide get_location inspect get_map get_missions get_nearby
      get_notifications get_player get_poi get_queue get_ship get_skills get_state get_status get_system
      get_system_agents get_tax_estimate get_version list_passengers list_station_passengers search_systems
      view_completed_mission`,
  }),
  spacemolt_auth: table({
    free: `claim login login_link login_link_poll login_token logout register`,
  }),
  spacemolt_battle: table({
    mutation: `reload`,
    free: `advance engage retreat stance target`,
    query: `log status summary`,
  }),
  spacemolt_citizenship: table({
    mutation: `apply renounce withdraw`,
    query: `list`,
  }),
  spacemolt_drone: table({
    mutation: `deploy load recall unload upload`,
    free: `name`,
    query: `get list`,
  }),
  spacemolt_facility: table({
    mutation: `allow_faction allow_player ban build buy_listing buy_ship_license cancel_listing deploy_outpost dismantle
      dismantle_outpost faction_build faction_dismantle faction_upgrade found_station job_add job_cancel job_reorder
      list_for_sale personal_build personal_decorate ranch_set_cull remove_faction remove_player repair set_access
      set_auto_buy_fuel
      set_build_policy set_description set_market_fee set_name set_output_price set_public set_refuel_price
      set_repair_price set_service_access transfer unban upgrade`,
    free: `facility_set_description station_set_name`,
    query: `base_cost browse_for_sale faction_list faction_owned job_list list owned personal_visit ranch_status
      station_info types upgrades`,
  }),
  spacemolt_faction: table({
    mutation: `accept_ally accept_invite accept_peace cancel_mission create declare_war invite join kick leave prepay_tax
      propose_ally propose_peace remove_ally remove_enemy set_enemy withdraw_invite`,
    free: `decline_invite delete_role delete_room`,
    query: `garages get_invites info list list_missions rooms tax_estimate visit_room`,
  }),
  spacemolt_faction_admin: table({
    mutation: `post_mission promote`,
    free: `create_role edit edit_role write_room`,
  }),
  spacemolt_faction_commerce: table({
    mutation: `create_buy_order create_sell_order`,
  }),
  spacemolt_fleet: table({
    mutation: `accept board create decline disband disembark invite kick leave`,
    query: `status`,
  }),
  spacemolt_intel: table({
    mutation: `espionage scan_poi submit_intel submit_trade_intel`,
    query: `intel_status query_intel query_trade_intel trade_intel_status`,
  }),
  spacemolt_market: table({
    mutation: `cancel_order create_buy_order create_sell_order modify_order`,
    free: `subscribe_market unsubscribe_market`,
    query: `analyze_market estimate_purchase view_market view_orders`,
  }),
  spacemolt_salvage: table({
    mutation: `insure loot release scrap sell set_home tow`,
    query: `policies quote wrecks`,
  }),
  spacemolt_ship: table({
    mutation: `buy_listed_ship cancel_commission cancel_ship_buy_order cancel_ship_listing commission_ship
      list_ship_for_sale place_ship_buy_order refit_ship rename_ship scrap_ship sell_ship sell_ship_to_order
      supply_commission switch_ship`,
    query: `browse_ships commission_quote commission_status list_ships view_ship_buy_orders`,
  }),
  spacemolt_shipping: table({
    mutation: `accept cancel deliver pay_debt post return`,
    query: `active get list profile quote track`,
  }),
  spacemolt_social: table({
    mutation: `forum_create_thread forum_delete_reply forum_delete_thread forum_reply forum_upvote`,
    free: `captains_log_add captains_log_delete chat create_note delete_note mute_notifications petition set_colors
      set_status unmute_notifications write_note`,
    query: `captains_log_get captains_log_list forum_get_thread forum_list get_action_log get_chat_history get_notes
      get_notification_settings read_note`,
  }),
  spacemolt_storage: table({
    mutation: `deposit jettison loot withdraw`,
    query: `view`,
  }),
  spacemolt_transfer: table({
    mutation: `trade_accept trade_offer`,
    free: `trade_cancel trade_decline`,
    query: `get_trades`,
  }),
};
