import { Agent, request } from "undici";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { CallStop } from "./call-stop.ts";

// A real collection, so a time limit that only a weakly held object kept would be seen to be lost.
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

describe("CallStop", () => {
  it("aborts with a TimeoutError once its time is up, and a real AbortSignal made after follows it", async () => {
    const stop = new CallStop(50);
    await new Promise((resolve) => stop.once("abort", resolve));
    expect(stop.aborted).toBe(true);
    expect((stop.reason as Error).name).toBe("TimeoutError");
    expect(stop.clientLeft).toBe(false);
    expect(stop.signal.aborted).toBe(true);
    expect((stop.signal.reason as Error).name).toBe("TimeoutError");
  });

  it("says the client left when the followed signal aborts, and aborts a signal made before", () => {
    const client = new AbortController();
    const stop = new CallStop(60_000).follow(client.signal);
    const signal = stop.signal;
    client.abort();
    expect(stop.aborted).toBe(true);
    expect(stop.clientLeft).toBe(true);
    expect(signal.aborted).toBe(true);
    expect(new CallStop(60_000).follow(client.signal).clientLeft).toBe(true);
  });

  it("is stopped by its holder with its reason, and then no longer hears the client", () => {
    const client = new AbortController();
    const stop = new CallStop(60_000).follow(client.signal);
    stop.abort(new Error("relay gave up"));
    expect((stop.reason as Error).message).toBe("relay gave up");
    client.abort(new Error("client gone"));
    expect((stop.reason as Error).message).toBe("relay gave up");
    expect(stop.clientLeft).toBe(false);
    const followed = new CallStop(60_000).follow(client.signal);
    expect((followed.reason as Error).message).toBe("client gone");
  });

  it("once released, never aborts: not by its time, its holder or the client", async () => {
    const client = new AbortController();
    const stop = new CallStop(30).follow(client.signal);
    stop.release();
    await new Promise((resolve) => setTimeout(resolve, 80));
    client.abort();
    stop.abort();
    stop.leave();
    expect(stop.aborted).toBe(false);
    expect(stop.signal.aborted).toBe(false);
  });

  it("makes children for attempts: each stops with it, the client's leaving included, and a released one lets go", () => {
    const client = new AbortController();
    const request = new CallStop(60_000).follow(client.signal);
    const first = request.child();
    first.release();
    expect(request.listenerCount("abort")).toBe(0);
    const second = request.child(60_000);
    client.abort(new Error("client gone"));
    expect(first.aborted).toBe(false);
    expect(second.aborted).toBe(true);
    expect(second.clientLeft).toBe(true);
    expect((second.reason as Error).message).toBe("client gone");
    expect(request.child().aborted).toBe(true);
  });

  it("a child stops on its own time while its parent lives on for the next attempt", async () => {
    const request = new CallStop(60_000);
    const attempt = request.child(20);
    await new Promise((resolve) => attempt.once("abort", resolve));
    expect(attempt.timedOut).toBe(true);
    expect(request.aborted).toBe(false);
    request.release();
  });

  it("keeps its time limit when only its AbortSignal is held, through a garbage collection", async () => {
    // AbortSignal.any([caller, AbortSignal.timeout(ms)]) on Node 20 can lose its timer here.
    const caller = new AbortController();
    const signal = new CallStop(100).follow(caller.signal).signal;
    const alone = new CallStop(100).signal;
    gc();
    await new Promise((resolve) => setTimeout(resolve, 50));
    gc();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect((signal.reason as Error | undefined)?.name).toBe("TimeoutError");
    expect(alone.aborted).toBe(true);
  });

  it("says its time stopped it, with the reason it was made with", async () => {
    const stop = new CallStop(30, (ms) => new Error(`timed out after ${ms} ms`));
    await new Promise((resolve) => stop.once("abort", resolve));
    expect(stop.timedOut).toBe(true);
    expect((stop.reason as Error).message).toBe("timed out after 30 ms");
    const left = new AbortController();
    const followed = new CallStop(60_000).follow(left.signal);
    left.abort();
    expect(followed.timedOut).toBe(false);
  });

  it("without a time limit stops only when told or followed, and follows no signal when given none", async () => {
    const stop = new CallStop().follow(undefined);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(stop.aborted).toBe(false);
    stop.abort(new Error("budget spent"));
    expect(stop.signal.aborted).toBe(true);
    expect((stop.signal.reason as Error).message).toBe("budget spent");
    expect(stop.timedOut).toBe(false);
    const parent = new AbortController();
    const child = new CallStop().follow(parent.signal);
    parent.abort(new Error("cancelled"));
    expect((child.signal.reason as Error).message).toBe("cancelled");
  });

  it("stops an undici request it is given as the signal, and undici lets go of it afterwards", async () => {
    const server = http.createServer((req) => req.resume()).listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const dispatcher = new Agent();
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const stop = new CallStop(60_000);
      const pending = request(url, { dispatcher, method: "POST", body: "{}", signal: stop });
      setTimeout(() => stop.abort(new Error("relay gave up")), 50);
      await expect(pending).rejects.toThrow("relay gave up");
      expect(stop.listenerCount("abort")).toBe(0);
    } finally {
      server.closeAllConnections();
      server.close();
      await dispatcher.close();
    }
  });
});
