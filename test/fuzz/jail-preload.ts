// Loaded into the fuzzed server process (node --import): hostile input must never turn into traffic to a
// real third-party service, so every connection off loopback fails there (upstream operations then
// answer their declared 502/503/504).
import { jailNetwork } from "../support/network-jail.ts";

jailNetwork();
