import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { warmProvider } from './warmUp.ts';

describe('warming a provider up', () => {
  it("loads the SDK through the provider's own import, once per call, and never rejects when it fails", async () => {
    let imports = 0;
    await expect(warmProvider(() => (imports++, Promise.reject(new Error('no such module'))))).resolves.toBeUndefined();
    expect(imports).toBe(1);
  });

  it("loads Node's fetch (undici) in a process that had not, without the network, once per process", () => {
    // A fresh process: this one's test runner may have loaded undici already.
    const script = `
      const loaded = () => process.moduleLoadList.some((name) => name.includes('undici'));
      import(${JSON.stringify(fileURLToPath(new URL('./warmUp.ts', import.meta.url)))}).then(async ({ warmFetch }) => {
        const before = loaded();
        const first = warmFetch();
        const same = warmFetch() === first;
        const result = await first;
        console.log(JSON.stringify({ before, same, resolved: result === undefined, after: loaded() }));
      });`;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8', timeout: 30_000 });
    expect(JSON.parse(out)).toEqual({ before: false, same: true, resolved: true, after: true });
  });
});
