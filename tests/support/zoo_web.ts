/**
 * The web widget zoo (tests/support/zoo/zoo.html) in a browser: a tiny HTTP server of the
 * test's own serves the page and takes the lines the page reports (`key: state`, one per
 * POST), so a test checks an action's effect by the page's word, not the driver's.
 *
 * @module
 */
import type { App } from "./apps.ts";

const ZOO_DIR = new URL("./zoo/", import.meta.url);
/** The files the server hands out, by URL path. */
const FILES: Record<string, string> = {
  "/zoo.html": "text/html; charset=utf-8",
  "/zoo.js": "text/javascript; charset=utf-8",
};

/** The zoo page open in a browser, and what it said so far. */
export interface ZooPage extends App {
  /** Every line the page reported, in order. */
  readonly lines: readonly string[];
  /**
   * Waits until the page reported a line `match` accepts, at index `from` or later (a
   * {@link ZooPage.mark} taken before the action); the line.
   */
  said(match: (line: string) => boolean, from?: number, timeoutMs?: number): Promise<string>;
  /** How many lines the page reported so far: where the next action's lines start. */
  mark(): number;
}

/**
 * Serves the zoo page titled `title` on 127.0.0.1 and opens it with `open` (given its URL);
 * ready once the page said `ready`. Stopping it stops the browser and the server.
 */
export async function zooPage(
  title: string,
  open: (url: string) => Promise<App>,
): Promise<ZooPage> {
  const lines: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (req.method === "POST" && path === "/report") {
      lines.push(await req.text());
      return new Response(null, { status: 204 });
    }
    const type = FILES[path];
    if (req.method !== "GET" || type === undefined) return new Response(null, { status: 404 });
    const body = await Deno.readFile(new URL(`.${path}`, ZOO_DIR));
    return new Response(body, { headers: { "content-type": type } });
  });
  const url = `http://127.0.0.1:${server.addr.port}/zoo.html?title=${encodeURIComponent(title)}`;
  const app = await open(url).catch(async (err) => {
    await server.shutdown();
    throw err;
  });
  const page: ZooPage = {
    pid: app.pid,
    lines,
    mark: () => lines.length,
    async said(match, from = 0, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (true) {
        const line = lines.slice(from).find(match);
        if (line !== undefined) return line;
        if (Date.now() > deadline) {
          throw new Error(
            `The zoo page never said what was waited for; it said: ${
              lines.slice(from).join(" | ")
            }`,
          );
        }
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async stop() {
      await app.stop();
      await server.shutdown();
    },
  };
  try {
    await page.said((l) => l === "ready");
  } catch (err) {
    await page.stop();
    throw err;
  }
  return page;
}
