// deno-lint-ignore-file no-console -- a benchmark prints its figures.
/**
 * MiniWoB++ in Chromium and Firefox, played by scripted policies that use only the
 * driver's ops (bench/web/policies.ts): per task the mean reward over {@link EPISODES}
 * episodes, the ops and ms per episode, and the totals per browser. The pages come from
 * `../shared/miniwob/html` (`MINIWOB_DIR`), served on loopback.
 *
 * `deno task bench web` (all tasks with a policy), or `deno run -A bench/web_bench.ts
 * click-button enter-text` inside the headless desktop for some. `WEB_BROWSERS=Chromium`
 * plays one browser; `WEB_TRACE=1` prints every op of an episode that failed (stderr).
 *
 * @module
 */
import * as apps from "../tests/support/apps.ts";
import type { App } from "../tests/support/apps.ts";
import { session } from "../tests/support/client.ts";
import { type Episode, playEpisode } from "./web/episode.ts";
import { POLICIES } from "./web/policies.ts";
import { miniwobDir, serveDir } from "./web/server.ts";
import { emit, round } from "./stats.ts";

const EPISODES = Number(Deno.env.get("WEB_EPISODES") ?? 10);
/** `WEB_TRACE=1`: every op of a failed episode goes to stderr, to see what went wrong. */
const TRACE = Boolean(Deno.env.get("WEB_TRACE"));
/** `WEB_BROWSERS=Firefox`: only these browsers (comma-separated names). */
const ONLY_BROWSERS = Deno.env.get("WEB_BROWSERS")?.split(",");

/** Prints the ops of a failed episode. */
function failed(browser: string, task: string, i: number, why: string, trace: string[]) {
  console.error(`${browser} ${task} episode ${i} failed (${why}):\n  ${trace.join("\n  ")}`);
}

/** The page's title per task: what the browser's window is called. */
async function titleOf(file: string): Promise<string> {
  const html = await Deno.readTextFile(file);
  return /<title>([^<]*)<\/title>/i.exec(html)?.[1]?.trim() ?? "";
}

const BROWSERS: { name: string; open(url: string, title: string): Promise<App> }[] = [
  { name: "Chromium", open: (url, title) => apps.chromium(url, title, "START") },
  { name: "Firefox", open: (url, title) => apps.firefox(url, title) },
];

if (!Deno.env.get("DISPLAY")) {
  console.error("web_bench: run it inside the headless desktop (deno task bench web)");
  Deno.exit(2);
}

const only = Deno.args.filter((a) => !a.startsWith("-"));
const tasks = Object.keys(POLICIES).filter((t) => only.length === 0 || only.includes(t));
const dir = miniwobDir();
const server = serveDir(dir);
try {
  for (const browser of BROWSERS.filter((b) => !ONLY_BROWSERS || ONLY_BROWSERS.includes(b.name))) {
    const totals = { reward: 0, episodes: 0, ops: 0, ms: 0, solved: 0 };
    for (const task of tasks) {
      const title = await titleOf(`${dir}/miniwob/${task}.html`);
      const app = await browser.open(`${server.base}/miniwob/${task}.html`, title);
      const s = await session();
      const episodes: Episode[] = [];
      let failure = "";
      try {
        const r = await s.client.call("read_ui", { app: app.pid });
        for (let i = 0; i < EPISODES; i++) {
          const trace = TRACE ? [] : undefined;
          try {
            const episode = await playEpisode(s.client, r.window, POLICIES[task]!, trace);
            episodes.push(episode);
            if (trace && episode.reward < 0) failed(browser.name, task, i, "reward < 0", trace);
          } catch (err) {
            if (trace) failed(browser.name, task, i, String(err), trace);
            failure ||= String(err).slice(0, 160);
            episodes.push({ reward: -1, ops: 0, ms: 0 });
            // Let the page end the episode by itself before the next.
            await new Promise((res) => setTimeout(res, 10_500));
          }
        }
      } finally {
        await s.close();
        await app.stop();
      }
      const mean = (f: (e: Episode) => number) =>
        episodes.reduce((a, e) => a + f(e), 0) / episodes.length;
      const reward = mean((e) => e.reward);
      totals.reward += reward;
      totals.episodes += episodes.length;
      totals.ops += mean((e) => e.ops);
      totals.ms += mean((e) => e.ms);
      if (reward >= 0.95) totals.solved++;
      emit({
        bench: `web ${browser.name}: ${task} mean reward`,
        figure: round(reward, 3),
        unit: "",
        note: `${episodes.length} episodes; ${round(mean((e) => e.ops), 1)} ops and ${
          round(mean((e) => e.ms), 0)
        } ms per episode${failure ? `; first failure: ${failure}` : ""}`,
      });
    }
    emit({
      bench: `web ${browser.name}: all ${tasks.length} tasks`,
      figure: round(totals.reward / tasks.length, 3),
      unit: "mean reward",
      note: `${totals.solved} of ${tasks.length} tasks at >= 0.95; ${
        round(totals.ops / tasks.length, 1)
      } ops and ${round(totals.ms / tasks.length, 0)} ms per episode on average`,
    });
  }
} finally {
  await server.close();
}
