/**
 * The judge (its rule tables, readings and shell-word model: ~300 kB of the backend's bundle) loads on
 * the first verdict, not at the backend's start: no session needs it before its first tool call, and
 * compiling it held up `gateway.ready` (scripts/bench/startup.ts). Its grammar already loads lazily.
 */
import type { JudgeContext, Verdict } from './types.ts';

let loading: Promise<typeof import('./judge.ts')> | undefined;

const judge = () => (loading ??= import('./judge.ts'));

/** `judge.ts` judgeCommand, once the judge has loaded. */
export async function judgeCommand(command: string, ctx: JudgeContext): Promise<Verdict> {
  return (await judge()).judgeCommand(command, ctx);
}

/** `judge.ts` judgeWrite, once the judge has loaded. */
export async function judgeWrite(filePath: string, ctx: JudgeContext): Promise<Verdict> {
  return (await judge()).judgeWrite(filePath, ctx);
}
