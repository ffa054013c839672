/**
 * A process that installs the stdout guard, writes two protocol frames through it, and in between
 * tries every JavaScript path to fd 1 it knows (run by stdoutGuard.test.ts). Each attempt's text
 * contains `leak-`: none may reach stdout, each must reach stderr.
 */
import { installStdoutGuard } from '../boot/stdoutGuard.ts';
import os from 'node:os';
import path from 'node:path';

const out = installStdoutGuard();
const fs = await import('node:fs');
const { writeSync } = await import('node:fs');
const cp = await import('node:child_process');
const { execa } = await import('execa');

const exited = (child: import('node:child_process').ChildProcess) => new Promise((resolve) => child.on('exit', resolve));

out.write('{"frame":1}\n');
fs.writeSync(1, 'leak-writeSync\n');
writeSync(1, Buffer.from('leak-named-import-writeSync\n'));
await new Promise((resolve) => fs.write(1, 'leak-write\n', resolve));
fs.writevSync(1, [Buffer.from('leak-writevSync\n')]);
fs.writeFileSync(1, 'leak-writeFileSync\n');
fs.appendFileSync('/dev/stdout', 'leak-appendFileSync-path\n');
const fd = fs.openSync('/dev/stdout', 'w');
fs.writeSync(fd, 'leak-openSync-alias\n');
fs.closeSync(fd);
const handle = await fs.promises.open('/proc/self/fd/1', 'w');
await handle.write('leak-filehandle\n');
await handle.close();
await fs.promises.writeFile('/dev/fd/1', 'leak-promises-writeFile\n');
const byPath = fs.createWriteStream('/dev/stdout');
await new Promise<void>((resolve) => byPath.end('leak-createWriteStream-path\n', () => resolve()));
const byFd = fs.createWriteStream('', { fd: 1 });
await new Promise<void>((resolve) => byFd.end('leak-createWriteStream-fd\n', () => resolve()));
const raw = (process as unknown as { binding(name: string): { writeString(fd: number, text: string, pos: null, encoding: string): number } }).binding('fs');
raw.writeString(1, 'leak-process-binding\n', null, 'utf8');
fs.closeSync(1); // refused: the next open() must not get fd 1
console.log('leak-console-log');
process.stdout.write('leak-process-stdout-write\n');
process.stdout.end('leak-process-stdout-end\n');
cp.spawnSync('echo', ['leak-spawnSync'], { stdio: 'inherit' });
cp.execSync('echo leak-execSync', { stdio: 'inherit' });
cp.execFileSync('echo', ['leak-execFileSync'], { stdio: ['ignore', 1, 2] });
await exited(cp.spawn('echo', ['leak-spawn-inherit'], { stdio: 'inherit' }));
await exited(cp.spawn('echo', ['leak-spawn-process-stdout'], { stdio: ['ignore', process.stdout, 'inherit'] }));
await exited(cp.spawn('sh', ['-c', 'echo leak-spawn-fd-1'], { stdio: [0, 1, 2] }));
await exited(cp.exec('echo leak-exec-ignored-output'));
const forked = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-fork-')), 'child.mjs');
fs.writeFileSync(forked, 'console.log("leak-fork-default-stdio");\n');
await exited(cp.fork(forked, [], { execArgv: [] }));
fs.rmSync(path.dirname(forked), { recursive: true, force: true });
await execa('echo', ['leak-execa-stdout-inherit'], { stdout: 'inherit' });
await execa('echo', ['leak-execa-stdio-inherit'], { stdio: 'inherit' });
const net = await import('node:net');
const tty = await import('node:tty');
const { Socket } = await import('node:net');
const socket = new net.Socket({ fd: 1, readable: false, writable: true });
await new Promise<void>((resolve) => socket.end('leak-net-socket-fd\n', () => resolve()));
const named = new Socket({ fd: 1, readable: false, writable: true });
await new Promise<void>((resolve) => named.end('leak-net-socket-named-import\n', () => resolve()));
const ttyStream = new tty.WriteStream(1);
await new Promise<void>((resolve) => ttyStream.end('leak-tty-writestream\n', () => resolve()));
if (!(socket instanceof net.Socket)) throw new Error('instanceof net.Socket broken by the guard');
out.write('{"frame":2}\n');
