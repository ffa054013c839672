import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderRows, renderStyled, stylesAt } from '../testing/renderFrame.ts';
import { sessionInfo } from '../testing/viewFixtures.ts';
import { Header } from './Header.tsx';

describe('Header', () => {
  it('names hermes and its version, the model and provider, and the folder, with the home folder as ~', () => {
    const info = sessionInfo({ model: 'claude-sonnet', provider: 'anthropic', version: '1.2.3', cwd: join(homedir(), 'code', 'app') });
    expect(renderRows(<Header info={info} />, 80)).toEqual(['⚕ hermes 1.2.3', '  model    claude-sonnet · anthropic', '  cwd      ~/code/app']);
    expect(stylesAt(renderStyled(<Header info={info} />, 80), 'claude-sonnet')).toEqual(['cyan']);
  });

  it('says "not configured" in yellow without a model, and names the demo model for --demo', () => {
    const missing = sessionInfo({ model: '', provider: '', setup_hint: 'set a model in config.yaml', cwd: '/srv' });
    expect(renderRows(<Header info={missing} />, 80)[1]).toBe('  model    not configured');
    expect(stylesAt(renderStyled(<Header info={missing} />, 80), 'not configured')).toEqual(['yellow']);
    const demo = sessionInfo({ demo: true, model: 'demo', provider: 'demo' });
    expect(renderRows(<Header info={demo} />, 80)[1]).toBe('  model    scripted demo model · demo');
  });

  it('wraps a long folder at 40 columns rather than losing it', () => {
    const cwd = '/srv/projects/a-rather-long-project-name/packages/server';
    const rows = renderRows(<Header info={sessionInfo({ cwd })} />, 40);
    expect(rows.slice(2).join('').replace(/\s+/g, '')).toBe(`cwd${cwd}`);
  });
});
