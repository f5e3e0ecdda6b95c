import type { Level, Reading, Role } from '../operations/operation.ts';

/**
 * Slot filling over an operation's reading (its registry entry's `reading`): whether a clause
 * gave one of the roles the operation needs, and the values of the parameters it did not say.
 */

/** Whether the roles a clause gave (those found truthy) include one the operation needs. */
export const givesNeeded = <P>(reading: Reading<P>, found: Partial<Record<Role, unknown>>): boolean => reading.needs.some((role) => Boolean(found[role]));

/** The parameters' values when not said: the operation's defaults, those of the kind named over them. */
export const defaultsOf = <P>(reading: Reading<P>, kind?: string): Readonly<Partial<P>> => ({ ...reading.defaults, ...(kind === undefined ? {} : reading.kinds?.[kind]) });

/** A parameter's value at a degree ("slightly", unqualified, "strongly"), from the reading's `levels`. */
export function levelOf<P>(reading: Reading<P>, name: string, level: Level): number {
  const steps = reading.levels?.[name];
  if (!steps) throw new Error(`the reading declares no levels of ${name}`);
  return steps[level];
}
