import type { EditOperation, OperationName } from '../plan.ts';
import type { Clause } from './clause.ts';

/**
 * One way of reading a clause. parse() takes the words it understands from the clause and returns
 * the operations they mean; the planner accepts the reading only if no other word is left over.
 */
export interface Rule {
  op: OperationName;
  parse(clause: Clause): EditOperation[] | undefined;
}
