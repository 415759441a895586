/**
 * Serves the viewer on loopback: the page at `/` and the trace's images at
 * `/images/<sha256>.png`; any other path is 404, so nothing outside the trace's images
 * can be read through it.
 *
 * @module
 */
import { IMAGE_NAME, imagePath, loadTrace } from "./load.ts";
import { servedImages, viewerHtml } from "./html.ts";

/** A running viewer server. */
export interface ViewerServer {
  /** `http://127.0.0.1:<port>/`. */
  url: string;
  /** Stops serving. */
  close(): Promise<void>;
  /** Resolves when the server has stopped. */
  finished: Promise<void>;
}

/**
 * Serves the trace in `dir` on 127.0.0.1 (a random port unless `port`). The page is built
 * per request, so reloading it shows ops a running driver appended since.
 */
export async function serveViewer(dir: string, port = 0): Promise<ViewerServer> {
  // onListen may run before Deno.serve returns: it only hands the port over.
  let listening!: (port: number) => void;
  const bound = new Promise<number>((ok) => listening = ok);
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port,
    onListen: ({ port }) => listening(port),
  }, (req) => answer(dir, req));
  return {
    url: `http://127.0.0.1:${await bound}/`,
    close: () => server.shutdown(),
    finished: server.finished,
  };
}

/** One request: the page, an image of the trace, or 404. */
async function answer(dir: string, req: Request): Promise<Response> {
  const path = new URL(req.url).pathname;
  if (path === "/") {
    const trace = await loadTrace(dir);
    return new Response(viewerHtml(trace, servedImages(trace)), {
      headers: { "content-type": "text/html; charset=utf-8" },
    });
  }
  const m = /^\/images\/([0-9a-f]+)\.png$/.exec(path);
  if (m && IMAGE_NAME.test(m[1]!)) {
    try {
      const bytes = await Deno.readFile(imagePath(dir, m[1]!));
      return new Response(bytes, { headers: { "content-type": "image/png" } });
    } catch {
      // Falls through to 404.
    }
  }
  return new Response("Not found", { status: 404 });
}
