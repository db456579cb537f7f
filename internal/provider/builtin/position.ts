// Where the ship is, for the autopilot, comes from its belief (spacemolt/belief.ts): the real server's status names the
// system by its name, says docked or not and names the POI only when docked; its action answers say no state at all
// (`Docked at X.`, `Sold 6 Gold Ore for 12cr.`). What no answer said stays unknown; this is the one stand-in the
// policies use for it.

/** A system's police before anything said it: neither lawless nor safe (the real Connections line says no police). */
export const POLICE_UNKNOWN = 50;
