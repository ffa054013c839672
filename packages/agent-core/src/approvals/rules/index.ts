/** Every rule module, registered by importing it. */
import './deletion.ts';
import './writers.ts';
import './system.ts';
import './codeRunners.ts';
import './vcs.ts';
import './data.ts';
import './infra.ts';
import './network.ts';
