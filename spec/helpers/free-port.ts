/**
 * Starting something on a port that must be known before it starts (an issuer URL, a registered
 * redirect, a config file), robustly: the helpers live with the real parts that use them too
 * (scripts/real-parts/), re-exported here for the specs.
 *
 * `listensOn` is for a child that says it listens even when its bind failed (the conformance
 * suite's callback server prints "started" from Express 5's listen callback, which also runs on
 * an error).
 */
export { freePorts, isPortTaken, PortTaken, startOnFreePort, startOnFreePorts, type StartOnFreePortsOptions } from '../../scripts/real-parts/free-port.js';
export { listensOn } from '../../scripts/real-parts/listens-on.js';
