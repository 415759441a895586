/**
 * The viewer as one HTML page: the stylesheet, the script and the trace's data inlined,
 * nothing fetched but the images (inlined too for `--html`: one file that opens offline).
 *
 * @module
 */
import { base64 } from "../../model/capture.ts";
import { imagePath, imagesOf, type LoadedTrace } from "./load.ts";
import { VIEWER_SCRIPT } from "./script.ts";
import { VIEWER_STYLE } from "./style.ts";

/** Image hash → the URL the page loads it from. */
export type ImageUrls = Record<string, string>;

/**
 * JSON for a `<script type="application/json">` block: `<` escaped, so no text in the
 * trace (an app's `</script>`) can end the block early.
 */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

/** Escapes text for an HTML text node or attribute. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The page for `trace`, its images at `urls`. */
export function viewerHtml(trace: LoadedTrace, urls: ImageUrls): string {
  const data = { header: trace.header, end: trace.end, ops: trace.ops, images: urls };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data: 'self'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>Trace: ${escapeHtml(trace.dir)}</title>
<style>${VIEWER_STYLE}</style>
</head>
<body>
<header><h1>Allternit Driver trace</h1><span id="summary"></span></header>
<ol id="timeline" aria-label="Ops"></ol>
<main id="detail"></main>
<script type="application/json" id="trace-data">${scriptJson(data)}</script>
<script>${VIEWER_SCRIPT}</script>
</body>
</html>
`;
}

/** The images of `trace` as `data:` URLs, for a page that stands alone. */
export async function inlineImages(trace: LoadedTrace): Promise<ImageUrls> {
  const urls: ImageUrls = {};
  for (const sha of imagesOf(trace)) {
    try {
      const bytes = await Deno.readFile(imagePath(trace.dir, sha));
      urls[sha] = `data:image/png;base64,${base64(bytes)}`;
    } catch {
      // A missing file shows as a broken image, not a failed page.
    }
  }
  return urls;
}

/** The images of `trace` as paths the viewer's server answers. */
export function servedImages(trace: LoadedTrace): ImageUrls {
  const urls: ImageUrls = {};
  for (const sha of imagesOf(trace)) urls[sha] = `images/${sha}.png`;
  return urls;
}
