// Debian's Chromium, headless, on a file: the layout (measured in the page) and a screenshot, in a viewport of a given
// size (a phone's is emulated, cdp-pipe.ts). .ci/run installs it (apt-get install chromium).
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { CdpBrowser } from './cdp-pipe';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** What the measuring script reads off the laid-out page. */
export interface Layout {
  readonly viewportWidth: number;
  readonly scrollWidth: number;
  /** The widest right edge of any element (px): beyond the viewport is a horizontal overflow. */
  readonly rightmost: number;
  /** The smallest font size of an element with text of its own (px). */
  readonly minFontPx: number;
  /** Each card's box: [left, top, width]. */
  readonly cards: readonly (readonly [number, number, number])[];
  readonly text: string;
}

/** Read off the laid-out page, in the page. */
const MEASURE = `(() => {
  const all = [...document.body.querySelectorAll('*')];
  const ownText = (el) => [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  return {
    viewportWidth: document.documentElement.clientWidth,
    scrollWidth: document.documentElement.scrollWidth,
    rightmost: Math.max(...all.map((el) => el.getBoundingClientRect().right)),
    minFontPx: Math.min(...all.filter(ownText).map((el) => parseFloat(getComputedStyle(el).fontSize))),
    cards: [...document.querySelectorAll('.card')].map((c) => { const r = c.getBoundingClientRect(); return [r.left, r.top, r.width]; }),
    text: document.body.innerText,
  };
})()`;

/** The page in a `width` × `height` viewport: its layout and a screenshot, from one headless Chromium. */
export async function inBrowser(html: string, width: number, height: number): Promise<{ layout: Layout; png: Buffer }> {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does), or set CHROMIUM_PATH`);
  const dir = mkdtempSync(join(tmpdir(), 'clm-page-'));
  const browser = CdpBrowser.launch(CHROMIUM, join(dir, 'profile'));
  try {
    const file = join(dir, 'page.html');
    writeFileSync(file, html);
    const page = await browser.open(`file://${file}`, width, height);
    const layout = await browser.evaluate<Layout>(page, MEASURE);
    return { layout, png: await browser.screenshot(page) };
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A PNG's size and how many distinct colours its pixels use (a blank page has one). */
export function pngFacts(png: Buffer): { width: number; height: number; colours: number } {
  if (png.subarray(1, 4).toString('latin1') !== 'PNG') throw new Error('not a PNG');
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const bitDepth = png[24]!;
  const colourType = png[25]!;
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.subarray(at + 4, at + 8).toString('latin1');
    if (type === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  if (bitDepth !== 8 || (colourType !== 2 && colourType !== 6)) throw new Error(`PNG type ${colourType}/${bitDepth}`);
  const channels = colourType === 6 ? 4 : 3;
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels + 1;
  // Unfilter (PNG filters 0-4) to count real colours.
  const pixels = Buffer.alloc(width * channels * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * stride]!;
    for (let x = 0; x < width * channels; x++) {
      const byte = raw[y * stride + 1 + x]!;
      const left = x >= channels ? pixels[y * width * channels + x - channels]! : 0;
      const up = y > 0 ? pixels[(y - 1) * width * channels + x]! : 0;
      const upLeft = y > 0 && x >= channels ? pixels[(y - 1) * width * channels + x - channels]! : 0;
      const paeth = () => {
        const p = left + up - upLeft;
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
        return pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      };
      const predictor = [0, left, up, (left + up) >> 1, paeth()][filter]!;
      pixels[y * width * channels + x] = (byte + predictor) & 0xff;
    }
  }
  const colours = new Set<number>();
  for (let i = 0; i < pixels.length; i += channels) colours.add(pixels.readUIntBE(i, 3));
  return { width, height, colours: colours.size };
}
