/**
 * `allternit-driver show-trace DIR`: serves the trace viewer on loopback and prints its
 * address, or with `--html OUT` writes the viewer as one self-contained file (images
 * inlined) and exits.
 *
 * @module
 */
import { loadTrace } from "../trace/viewer/load.ts";
import { inlineImages, viewerHtml } from "../trace/viewer/html.ts";
import { serveViewer } from "../trace/viewer/serve.ts";
import { writeAllSync } from "../util/write.ts";

/** `show-trace` options. */
export interface ShowTraceOptions {
  /** The trace folder. */
  dir: string;
  /** Write this HTML file instead of serving. */
  html?: string;
  /** Port to serve on (default: random). */
  port?: number;
}

/** Runs `show-trace`; resolves with the exit code. */
export async function showTrace(options: ShowTraceOptions): Promise<number> {
  const trace = await loadTrace(options.dir);
  if (options.html !== undefined) {
    await Deno.writeTextFile(options.html, viewerHtml(trace, await inlineImages(trace)));
    writeAllSync(
      Deno.stdout,
      JSON.stringify({ html: options.html, ops: trace.ops.length }) + "\n",
    );
    return 0;
  }
  const viewer = await serveViewer(options.dir, options.port ?? 0);
  writeAllSync(Deno.stdout, `${viewer.url}\n`);
  const stop = () => void viewer.close();
  Deno.addSignalListener("SIGINT", stop);
  if (Deno.build.os !== "windows") Deno.addSignalListener("SIGTERM", stop);
  await viewer.finished;
  return 0;
}
