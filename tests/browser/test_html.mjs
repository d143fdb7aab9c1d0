// Browser test of the `layout ... --html` pages (make browser-test).
//
// Writes the pages of seed kernels 01 and 08 (gfx942 + gfx950) and one
// `layout banks` page with the tool, loads each from disk (file://) in
// Debian's chromium driven by playwright-core (no browser download), and
// checks the DOM against values derived here from the spec, not from the
// tool: the bank of every cell ((byte / 4) % banks, docs/lds-model.md §1.1), the lanes
// touching a known cell (the distributions' formulas in
// examples/seed_kernels.h), the per-tile counts of the seed talk's table
// (01: 1 b128 write + 8 b16 reads per wave, 14 extra cycles per read, 448 per
// tile; 08: conflict-free), that clicking an instruction highlights exactly
// its lanes' cells, that no console error occurs and nothing but the file is
// loaded, and that a screenshot saved under the build folder is not blank.
//
// usage: node tests/browser/test_html.mjs [LAYOUT_TOOL [OUT_DIR]]
// env:   CHROMIUM (default /usr/bin/chromium)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const tool = resolve(process.argv[2] || 'build/bin/layout');
const outDir = resolve(process.argv[3] || 'build/browser');
const browserPath = process.env.CHROMIUM || '/usr/bin/chromium';
mkdirSync(outDir, { recursive: true });

let passed = 0, failed = 0;
function check(cond, what) {
  if (cond) { passed++; return; }
  failed++;
  console.log('FAIL: ' + what);
}
function eq(got, want, what) { check(got === want, `${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`); }

// ------------------------------------------------------------ the kernels
// Seed 000 (examples/seed_kernels.h): 64 x 32 fp16 tile, 4 waves of 64 lanes.
const WRITE = 'dist(R=[], H=([4,16],[4,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])';
const READ01 = 'dist(R=[], H=([4,8],[8,8]), P=([(1,0)],[(1,1),(2,0)]), Y=[(2,1)])';
const LDS08 = 'naive([8,32,8],[8,64,1],gvl=8,gvs=1) | T{xor([32,8]):[1,0]->[1,0] ; pass(8):[2]->[2]} | ' +
  'T{unmerge([2,4]):[0]->[0,3] ; pass(32):[1]->[1] ; pass(8):[2]->[2]} | T{merge([32,2]):[1,0]->[0] ; merge([4,8]):[3,2]->[1]}';
const READ08 = 'dist(R=[1], H=([1,8,8],[4,8]), P=([(2,0)],[(1,1),(1,2)]), Y=[(1,0),(2,1)])';

// Element offsets of (m, k).  01: packed [64, 32].  08: the talk's XOR
// layout: b = m / 2, l = m % 2, A = 4 l + k / 8 is stored at A ^ (b % 8),
// offset = 8 (A ^ (b % 8)) + 64 b + k % 8 (ck_tile's xor_t on (B, A)).
const off01 = (m, k) => 32 * m + k;
const off08 = (m, k) => { const b = m >> 1, A = 4 * (m & 1) + (k >> 3); return 8 * (A ^ (b % 8)) + 64 * b + (k & 7); };
// Lanes: the write side stores m = 16 w + l / 4, k = 8 (l % 4) + y (one b128);
// 01 reads k = 8 w + l / 8, m = 8 (l % 8) + y (one u16 per y, step = y);
// 08 reads m = l, k = 8 w + y (one b128).
const writer = (m, k) => ({ warp: m >> 4, step: 0, lane: 4 * (m % 16) + (k >> 3) });
const reader01 = (m, k) => ({ warp: k >> 3, step: m % 8, lane: 8 * (k % 8) + (m >> 3) });
const reader08 = (m, k) => ({ warp: k >> 3, step: 0, lane: m });
// Lane groups (docs/lds-model.md §2), numbered by lowest lane as the arch lists them.
const half = lane => lane >> 5;                          // b8/b16/b32 on gfx942 and gfx950
const write128 = lane => lane >> 3;                      // b128 writes: 8 consecutive lanes
const read128gfx942 = (() => {                           // {0-3,20-23} {4-7,16-19} {8-11,28-31} {12-15,24-27}, +32
  const sets = [[0, 3, 20, 23], [4, 7, 16, 19], [8, 11, 28, 31], [12, 15, 24, 27]];
  return lane => 4 * (lane >> 5) + sets.findIndex(s => { const l = lane % 32; return (l >= s[0] && l <= s[1]) || (l >= s[2] && l <= s[3]); });
})();
const bankOf = (byte, banks) => Math.floor(byte / 4) % banks;

function page(name, args) {
  const path = `${outDir}/${name}.html`;
  try { execFileSync(tool, [...args, '--html', path], { stdio: ['ignore', 'ignore', 'pipe'] }); }
  catch (e) { if (e.status !== 1) throw new Error(`layout ${args.join(' ')}: exit ${e.status}: ${e.stderr}`); }
  return path;
}

// -------------------------------------------------------------- helpers
async function open(browser, path) {
  const p = await browser.newPage({ viewport: { width: 1500, height: 1250 } });
  const errors = [], foreign = [];
  p.on('console', m => { if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text()); });
  p.on('pageerror', e => errors.push(String(e)));
  p.on('request', r => { if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) foreign.push(r.url()); });
  await p.goto(pathToFileURL(path).href);
  await p.waitForSelector('body[data-ready="1"]', { timeout: 10000 });
  return { p, errors, foreign };
}
const text = (p, sel) => p.$eval(sel, e => e.textContent.trim());
const cellSel = (m, k) => `.cell[data-r="${m}"][data-c="${k}"]`;
const banksOnPage = p => p.$$eval('.cell', cs => cs.map(c => [+c.dataset.r, +c.dataset.c, +c.dataset.bank]));
const onCells = p => p.$$eval('.cell.on', cs => cs.map(c => [+c.dataset.r, +c.dataset.c, +c.dataset.lane]));
const hotCells = p => p.$$eval('.cell.hot', cs => cs.map(c => `${c.dataset.r},${c.dataset.c}`));

function checkBanks(got, off, banks, what) {
  eq(got.length, 64 * 32, `${what}: cells`);
  const bad = got.filter(([m, k, b]) => b !== bankOf(2 * off(m, k), banks));
  check(bad.length === 0, `${what}: ${bad.length} cells with a wrong bank, e.g. ${JSON.stringify(bad[0])}`);
}

async function hover(p, m, k) {
  await p.hover(cellSel(m, k));
  return {
    coord: await text(p, '#info-coord'), offset: await text(p, '#info-offset'), byte: await text(p, '#info-byte'),
    bank: await text(p, '#info-bank'), write: await text(p, '#info-write'), read: await text(p, '#info-read'),
  };
}
const lanesText = (who, group) => `warp ${who.warp}, step ${who.step}, lane ${who.lane} (group ${group})`;

// Select side / warp and click an instruction row; returns the highlighted cells.
async function pick(p, side, warp, step) {
  await p.selectOption('#side', side === 'write' ? '0' : '1');
  await p.selectOption('#warp', String(warp));
  await p.click(`#instr-${step}`);
  eq(await p.$eval(`#instr-${step}`, e => e.classList.contains('sel')), true, `row ${side} ${warp} ${step} selected`);
  return onCells(p);
}

// The highlighted cells are exactly those of the instruction's lanes, labelled with their lane.
function checkLanes(got, owner, side, warp, step, what) {
  const want = [];
  for (let m = 0; m < 64; m++)
    for (let k = 0; k < 32; k++) {
      const o = owner(m, k);
      if (o.warp === warp && o.step === step) want.push(`${m},${k},${o.lane}`);
    }
  const g = got.map(c => c.join(',')).sort(), w = want.sort();
  eq(g.length, w.length, `${what}: highlighted cells`);
  check(g.join(' ') === w.join(' '), `${what}: highlighted cells or their lanes differ from the ${side} distribution`);
}

// A screenshot that is not blank: decoded in the browser, many distinct colours and a spread of brightness.
async function checkScreenshot(browser, p, name) {
  const file = `${outDir}/${name}.png`;
  await p.screenshot({ path: file, fullPage: true });
  const size = statSync(file).size;
  check(size > 20000, `${name}.png is ${size} bytes`);
  const q = await browser.newPage();
  await q.setContent('<canvas id="c"></canvas>');
  const stats = await q.evaluate(async (url) => {
    const img = new Image();
    img.src = url;
    await img.decode();
    const c = document.getElementById('c');
    c.width = img.width; c.height = img.height;
    const ctx = c.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const d = ctx.getImageData(0, 0, img.width, img.height).data, colours = new Set();
    let sum = 0, sq = 0, n = 0;
    for (let i = 0; i < d.length; i += 4 * 7) {
      const y = 0.299 * d[i] + 0.587 * d[i + 1] + 0.114 * d[i + 2];
      sum += y; sq += y * y; n++;
      colours.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
    }
    return { w: img.width, h: img.height, colours: colours.size, sd: Math.sqrt(sq / n - (sum / n) ** 2) };
  }, 'data:image/png;base64,' + readFileSync(file).toString('base64'));
  await q.close();
  check(stats.w >= 1000 && stats.h >= 1000, `${name}.png is ${stats.w} x ${stats.h}`);
  check(stats.colours >= 64, `${name}.png has ${stats.colours} colours`);
  check(stats.sd > 20, `${name}.png brightness spread ${stats.sd.toFixed(1)}`);
  console.log(`screenshot ${file}: ${stats.w} x ${stats.h}, ${size} bytes, ${stats.colours} colours, sd ${stats.sd.toFixed(1)}`);
}

async function finish(o, name) {
  eq(o.errors.join(' | '), '', `${name}: console errors`);
  eq(o.foreign.join(' '), '', `${name}: requests other than the file`);
  await o.p.close();
}

// ---------------------------------------------------------------- tests
async function kernel01(browser) {
  const path = page('k01', ['check', '--arch', 'gfx942,gfx950', '--elem', '2', '--lds', 'packed([64,32])',
    '--read-lds', 'naive([32,64],[1,32])', '--write', WRITE, '--read', READ01, '--tiles', '8192']);
  const o = await open(browser, path), p = o.p;
  eq(await p.$$eval('#arch option', os => os.map(x => x.textContent).join(',')), 'gfx942,gfx950', '01 arches');
  // Counts: 4 waves x 1 b128 write, 4 x 8 u16 reads of 14 extra cycles each.
  eq(await text(p, '#sum-write-instrs'), '4', '01 write instructions');
  eq(await text(p, '#sum-write-extra'), '0', '01 write extra cycles');
  eq(await text(p, '#sum-read-instrs'), '32', '01 read instructions');
  eq(await text(p, '#sum-read-extra'), '448', '01 read extra cycles');
  eq(await text(p, '#sum-total-extra'), '448', '01 extra cycles per tile');
  check((await text(p, '#counters')).includes('SQ_LDS_BANK_CONFLICT 3670016'), '01 counters over 8192 tiles');
  checkBanks(await banksOnPage(p), off01, 32, '01 gfx942');
  // A known cell: (9, 5) at offset 293, byte 586, bank 146 % 32 = 18.
  const h = await hover(p, 9, 5);
  eq(h.coord, '(d0, d1) = (9, 5)', '01 hover coordinate');
  eq(h.offset, '293', '01 hover offset');
  check(h.byte.startsWith('586 (0x24a)'), `01 hover byte: ${h.byte}`);
  eq(h.bank, '18', '01 hover bank');
  eq(h.write, lanesText(writer(9, 5), write128(writer(9, 5).lane)), '01 hover write lanes');
  eq(h.read, lanesText(reader01(9, 5), half(reader01(9, 5).lane)), '01 hover read lanes');
  // Read warp 0 step 1: 64 cells (m = 8a + 1, k = b), lane 8b + a; 8-way in each half-wave:
  // every word collides, 7 extra cycles per group, 14 for the instruction.
  const sel = await pick(p, 'read', 0, 1);
  checkLanes(sel, reader01, 'read', 0, 1, '01 read w0 s1');
  eq((await hotCells(p)).sort().join(' '), sel.map(c => `${c[0]},${c[1]}`).sort().join(' '), '01 read w0 s1 colliding cells');
  eq(await p.$$eval('#groups-body .grp', gs => gs.map(g => g.dataset.extra).join(',')), '7,7', '01 read group extra cycles');
  check((await text(p, '#group-0')).includes('8-way'), '01 read group 0 is 8-way');
  eq(await p.$$eval('#group-1 + .chips .chip', cs => cs.map(c => c.dataset.lane).join(',')),
    Array.from({ length: 32 }, (_, i) => String(32 + i)).join(','), '01 read group 1 lanes');
  eq(await p.$$eval('#instrs tbody tr', rs => rs.map(r => r.lastChild.textContent).join(',')),
    '14,14,14,14,14,14,14,14', '01 read extra cycles per instruction');
  // Write warp 1: rows 16..31, conflict-free, 8 groups of 8 lanes.
  const wsel = await pick(p, 'write', 1, 0);
  checkLanes(wsel, writer, 'write', 1, 0, '01 write w1 s0');
  eq((await hotCells(p)).length, 0, '01 write: no colliding cell');
  eq(await p.$$eval('#groups-body .grp', gs => gs.map(g => g.dataset.extra).join(',')), '0,0,0,0,0,0,0,0', '01 write groups');
  // Lane labels on the grid.
  await p.selectOption('#label', 'lane');
  eq(await text(p, cellSel(16, 8)), String(writer(16, 8).lane), '01 lane label');
  await p.selectOption('#label', 'bank');
  await checkScreenshot(browser, p, 'k01-gfx942');
  // gfx950: 64 banks; (2, 0) is at byte 128, word 32: bank 0 on gfx942, 32 on gfx950.
  eq(await p.$eval(cellSel(2, 0), e => e.dataset.bank), '0', '01 gfx942 bank of (2,0)');
  await p.selectOption('#arch', '1');
  eq(await p.$eval(cellSel(2, 0), e => e.dataset.bank), '32', '01 gfx950 bank of (2,0)');
  checkBanks(await banksOnPage(p), off01, 64, '01 gfx950');
  eq(await p.$$eval('#legend .sw', s => s.length), 64, '01 gfx950 legend');
  eq(await text(p, '#sum-read-extra'), '448', '01 gfx950 read extra cycles (8-way per half-wave again)');
  eq(await text(p, '#sum-write-extra'), '0', '01 gfx950 write extra cycles');
  await finish(o, '01');
}

async function kernel08(browser) {
  const path = page('k08', ['check', '--arch', 'gfx942', '--arch', 'gfx950', '--elem', '2', '--lds', LDS08,
    '--write', WRITE, '--read', READ08, '--tiles', '8192']);
  const o = await open(browser, path), p = o.p;
  eq(await text(p, '#sum-write-instrs'), '4', '08 write instructions');
  eq(await text(p, '#sum-read-instrs'), '4', '08 read instructions');
  eq(await text(p, '#sum-write-extra'), '0', '08 write extra cycles');
  eq(await text(p, '#sum-read-extra'), '0', '08 read extra cycles');
  eq(await text(p, '#verdict'), 'conflict-free', '08 verdict');
  check((await text(p, '#counters')).includes('SQ_INSTS_LDS 65536'), '08 SQ_INSTS_LDS over 8192 tiles');
  checkBanks(await banksOnPage(p), off08, 32, '08 gfx942');
  // (9, 5): b = 4, l = 1, A = 4 stored at 4 ^ 4 = 0: offset 256 + 5 = 261, byte 522, bank 2.
  const h = await hover(p, 9, 5);
  eq(h.offset, '261', '08 hover offset');
  eq(h.bank, '2', '08 hover bank');
  eq(h.write, lanesText(writer(9, 5), write128(writer(9, 5).lane)), '08 hover write lanes');
  eq(h.read, lanesText(reader08(9, 5), read128gfx942(reader08(9, 5).lane)), '08 hover read lanes');
  // Read warp 1: k = 8..15 of every row, lane = m, no collision.
  const sel = await pick(p, 'read', 1, 0);
  checkLanes(sel, reader08, 'read', 1, 0, '08 read w1 s0');
  eq((await hotCells(p)).length, 0, '08 read: no colliding cell');
  eq(await p.$$eval('#groups-body .grp', gs => gs.map(g => g.dataset.extra).join(',')), '0,0,0,0,0,0,0,0', '08 read groups');
  eq(await p.$$eval('#group-0 + .chips .chip', cs => cs.map(c => c.dataset.lane).join(',')),
    '0,1,2,3,20,21,22,23', '08 read group 0 lanes (gfx942 b128 read, docs/lds-model.md §2.2)');
  await checkScreenshot(browser, p, 'k08-gfx942');
  await p.selectOption('#arch', '1');
  checkBanks(await banksOnPage(p), off08, 64, '08 gfx950');
  // Whatever gfx950 predicts, the page's per-instruction numbers add up to its per-side totals.
  for (const side of ['write', 'read']) {
    await p.selectOption('#side', side === 'write' ? '0' : '1');
    let sum = 0;
    for (let w = 0; w < 4; w++) {
      await p.selectOption('#warp', String(w));
      sum += (await p.$$eval('#instrs tbody tr', rs => rs.map(r => +r.lastChild.textContent))).reduce((a, b) => a + b, 0);
    }
    eq(String(sum), await text(p, `#sum-${side}-extra`), `08 gfx950 ${side}: instructions add up to the total`);
  }
  await finish(o, '08');
}

async function banksPage(browser) {
  const path = page('banks', ['banks', 'naive([64,32],[34,1])', '--arch', 'gfx942,arch(base=gfx942, name=g64, banks=64)']);
  const o = await open(browser, path), p = o.p;
  eq(await p.$$eval('#arch option', os => os.map(x => x.textContent).join(',')), 'gfx942,g64', 'banks arches');
  eq(await p.$eval('#instrs-title', e => e.offsetParent === null), true, 'banks: no instruction panel');
  checkBanks(await banksOnPage(p), (m, k) => 34 * m + k, 32, 'banks gfx942');
  const h = await hover(p, 3, 5);
  eq(h.offset, '107', 'banks hover offset (3 * 34 + 5)');
  eq(h.bank, String(bankOf(214, 32)), 'banks hover bank');
  await p.selectOption('#arch', '1');
  checkBanks(await banksOnPage(p), (m, k) => 34 * m + k, 64, 'banks g64');
  await finish(o, 'banks');
}

if (!existsSync(browserPath)) {
  console.log(`test_html: ${browserPath} not found (set CHROMIUM)`);
  process.exit(1);
}
const browser = await chromium.launch({ executablePath: browserPath, args: ['--no-sandbox', '--disable-gpu'] });
try {
  await kernel01(browser);
  await kernel08(browser);
  await banksPage(browser);
} catch (e) {
  failed++;
  console.log('FAIL: ' + (e && e.stack || e));
} finally {
  await browser.close();
}
console.log(`test_html (browser): ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
