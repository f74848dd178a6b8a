// Preloaded (NODE_OPTIONS=--import) into a peer generator's processes to prove it works offline:
// any DNS lookup, socket connection or fetch ends the process with exit code 97. Used for one
// checking run before the timed ones, so the guard costs the timed runs nothing.
import dns from "node:dns";
import net from "node:net";

const refuse = (what) => () => {
  process.stderr.write(`offline guard: ${what} attempted\n`);
  process.exit(97);
};
dns.lookup = refuse("dns.lookup");
dns.promises.lookup = refuse("dns.promises.lookup");
net.Socket.prototype.connect = refuse("net connect");
globalThis.fetch = refuse("fetch");
