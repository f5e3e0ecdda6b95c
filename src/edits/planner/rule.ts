import type { EditOperation, OperationName } from '../plan.ts';
import type { Clause } from './clause.ts';
import type { Phrases } from './phrases.ts';

/**
 * One way of reading a clause. parse() takes the words it understands from the clause and returns
 * the operations they mean; the planner accepts the reading only if no other word is left over.
 */
export interface Rule {
  op: OperationName;
  parse(clause: Clause): EditOperation[] | undefined;
  /**
   * Phrases of which the clause must hold one for parse to read it (its words that ask for the
   * operation): a clause with none is not tried, which keeps planning cheap.
   */
  needs?: readonly Phrases[];
}
