import { requireString } from './paths.ts';
import type { ToolDefinition } from './types.ts';

export const NO_HUMAN_ANSWER =
  'No human is available to answer questions right now. Proceed with your best judgment and state the assumption you made.';

export const clarifyTool: ToolDefinition = {
  name: 'clarify',
  toolset: 'clarify',
  description:
    'Ask the user a question when the request is ambiguous and a wrong guess would be costly. ' +
    'Offer choices when the answer is one of a few options. Waits for the answer.',
  parameters: {
    type: 'object',
    properties: {
      question: { type: 'string', description: 'The question, self-contained' },
      choices: { type: 'array', items: { type: 'string' }, description: 'Suggested answers (the user may answer otherwise)' },
    },
    required: ['question'],
  },
  preview: (args) => String(args.question ?? ''),
  async handler(args, context) {
    const question = requireString(args, 'question');
    let choices: string[] | undefined;
    if (args.choices !== undefined && args.choices !== null) {
      if (!Array.isArray(args.choices) || !args.choices.every((c) => typeof c === 'string')) {
        throw new Error('"choices" must be a list of strings');
      }
      choices = args.choices.length > 0 ? (args.choices as string[]) : undefined;
    }
    if (!context.clarify) return NO_HUMAN_ANSWER;
    const answer = await context.clarify(question, choices);
    return answer.trim() === ''
      ? 'The user declined to answer. Proceed with your best judgment and state the assumption you made.'
      : `The user answered: ${answer}`;
  },
};
