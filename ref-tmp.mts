import { RulePlanner } from './src/edits/planner/rule-planner.ts';
const planner = new RulePlanner({ regions: true });
const out: unknown[] = [];
for (const prompt of process.argv.slice(2)) {
  try { console.error('PLANNED', prompt, JSON.stringify(planner.planSync(prompt).operations)); } catch (e: any) { out.push({ prompt, kind: e.kind, reason: e.reason, clause: e.clause }); }
}
console.log(JSON.stringify(out));
