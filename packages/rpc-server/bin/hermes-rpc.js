#!/usr/bin/env node
// The backend's bin as it was first named: the package's bin is hermes-rpc.cjs (see there why).
import './hermes-rpc.cjs';
