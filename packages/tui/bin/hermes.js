#!/usr/bin/env node
// hermes as it was first started (`node packages/tui/bin/hermes.js`): the package's bin is hermes.cjs (see there why).
import './hermes.cjs';
