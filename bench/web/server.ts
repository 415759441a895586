/**
 * MiniWoB++'s pages served on loopback: the tasks load their scripts by relative path,
 * so they need an HTTP server, not `file://`.
 *
 * @module
 */

/** Where MiniWoB++'s `html/` folder is (`MINIWOB_DIR`, else `../shared/miniwob/html`). */
export function miniwobDir(): string {
  return Deno.env.get("MINIWOB_DIR") ??
    new URL("../../../shared/miniwob/html", import.meta.url).pathname;
}

const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  js: "text/javascript",
  css: "text/css",
  png: "image/png",
  gif: "image/gif",
  svg: "image/svg+xml",
  json: "application/json",
};

/**
 * A static server of `root` on 127.0.0.1; its base URL and a way to stop it. `route`
 * answers a request first when it will (a page's report), before the files are looked in.
 */
export function serveDir(
  root: string,
  route: (url: URL) => Response | undefined = () => undefined,
): { base: string; close(): Promise<void> } {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const routed = route(url);
    if (routed) return routed;
    const path = decodeURIComponent(url.pathname);
    // Only files under root: no "..", no absolute escapes.
    if (path.split("/").includes("..")) return new Response("no", { status: 403 });
    try {
      const body = await Deno.readFile(`${root}${path}`);
      const ext = path.slice(path.lastIndexOf(".") + 1);
      return new Response(body, {
        headers: { "content-type": TYPES[ext] ?? "application/octet-stream" },
      });
    } catch {
      return new Response("not found", { status: 404 });
    }
  });
  return {
    base: `http://127.0.0.1:${server.addr.port}`,
    close: () => server.shutdown(),
  };
}
