/** Every rule module, registered by importing it. */
import './deletion.ts';
import './writers.ts';
import './system.ts';
import './codeRunners.ts';
