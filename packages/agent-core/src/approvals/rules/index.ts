/** Every rule module, registered by importing it. */
import './deletion.ts';
import './writers.ts';
import './fileTools.ts';
import './targetWriters.ts';
import './system.ts';
import './processes.ts';
import './services.ts';
import './codeRunners.ts';
import './vcs.ts';
import './data.ts';
import './dbTasks.ts';
import './infra.ts';
import './cloud.ts';
import './network.ts';
import './security.ts';
import './secrets.ts';
