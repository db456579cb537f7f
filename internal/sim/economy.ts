// Lazy economics: deposits regenerate and market bids recover as closed-form functions of the ticks since their last
// change, so a tick costs nothing for the thousands of deposits and prices nobody touched (SIM-SPEC "Deposits",
// "Markets").
import type { Deposit, MarketEntry } from './world.js';

export const DEPOSIT_REGEN_SHARE = 0.01;
export const BID_DROP_PER_UNIT = 0.005;
export const ASK_RISE_PER_UNIT = 0.005;
export const BID_RECOVERY_SHARE = 0.02;
export const ASK_MARKUP = 1.25;

/** Remaining units (fractional) at `tick`. */
export function depositRemaining(deposit: Deposit, tick: number): number {
  const elapsed = Math.max(0, tick - deposit.since);
  return Math.min(deposit.max, deposit.remaining + elapsed * deposit.max * DEPOSIT_REGEN_SHARE);
}

/** What a player sees and can mine: whole units. */
export function depositUnits(deposit: Deposit, tick: number): number {
  return Math.floor(depositRemaining(deposit, tick) + 1e-9);
}

export function takeFromDeposit(deposit: Deposit, tick: number, quantity: number): void {
  deposit.remaining = depositRemaining(deposit, tick) - quantity;
  deposit.since = tick;
}

/** The raw bid at `tick`: the gap to equilibrium shrinks by 2% per tick. */
export function rawBid(entry: MarketEntry, tick: number): number {
  const elapsed = Math.max(0, tick - entry.since);
  return entry.equilibrium + (entry.bid - entry.equilibrium) * Math.pow(1 - BID_RECOVERY_SHARE, elapsed);
}

export function unitPrice(raw: number): number {
  return Math.max(1, Math.round(raw));
}

export function quoteBid(entry: MarketEntry, tick: number): number {
  return unitPrice(rawBid(entry, tick));
}

export function quoteAsk(entry: MarketEntry, tick: number): number {
  return unitPrice(rawBid(entry, tick) * ASK_MARKUP);
}

/** Sells unit by unit down the bid; returns the total earned. Mutates the entry. */
export function walkBid(entry: MarketEntry, tick: number, quantity: number): number {
  let bid = rawBid(entry, tick);
  let total = 0;
  for (let i = 0; i < quantity; i++) {
    total += unitPrice(bid);
    bid *= 1 - BID_DROP_PER_UNIT;
  }
  entry.bid = bid;
  entry.since = tick;
  return total;
}

/** The cost of buying `quantity` units up the ask, without changing anything. */
export function askCost(entry: MarketEntry, tick: number, quantity: number): { total: number; finalBid: number } {
  let bid = rawBid(entry, tick);
  let total = 0;
  for (let i = 0; i < quantity; i++) {
    total += unitPrice(bid * ASK_MARKUP);
    // ask = bid × 1.25 always, so raising the ask 0.5% raises the bid with it.
    bid *= 1 + ASK_RISE_PER_UNIT;
  }
  return { total, finalBid: bid };
}
