import { describe, expect, it } from 'vitest';
import { configHeadline } from './configProblems.ts';

describe('configHeadline', () => {
  it('names the file a problem is about: .env lines and a logs folder are not config.yaml settings', () => {
    expect(configHeadline([{ kind: 'value', text: '/h/.env line 3: is not NAME=value, so it sets nothing (hermes skips it).' }])).toBe(
      '.env: a line hermes cannot use, so hermes skips it',
    );
    expect(configHeadline([{ kind: 'unreadable', text: '/h/logs/backend.log: hermes cannot write /h/logs/backend.log: /h/logs is a file where a folder should be.' }])).toBe(
      'backend.log cannot be used as it is: hermes goes on without it until it is fixed',
    );
    expect(configHeadline([{ kind: 'value', text: '/h/config.yaml line 2: `agent.max_turns` must be a whole number above 0 (found "abc")' }])).toBe(
      'config.yaml has a setting hermes cannot use: its default applies',
    );
  });
});
