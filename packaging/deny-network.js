// Preloaded (`node --import`) into the publint and attw runs: they check local tarballs, so any
// attempt at the network is a bug in the check, and fails it loudly instead of passing online.
import net from 'node:net';

const refuse = () => {
  throw new Error('deny-network: this check must run offline, but it tried to reach the network');
};
globalThis.fetch = refuse;
net.Socket.prototype.connect = refuse;
