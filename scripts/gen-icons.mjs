#!/usr/bin/env node
// Regenerates the app icons in resources/ from code (no image tools needed): a teal rounded square with
// three candlesticks, rendered with supersampling at every size, then packed as
//   resources/icon.png            1024 px (electron-builder's source icon)
//   resources/icons/<N>x<N>.png   16 … 1024 px (Linux: AppImage, deb)
//   resources/icon.ico            16 … 256 px (Windows: exe, nsis)
//   resources/icon.icns           16 … 1024 px incl. @2x (macOS: app, dmg)
// Run: node scripts/gen-icons.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';

const out = resolve(import.meta.dirname, '..', 'resources');
const SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];

// ---- drawing (coordinates in 0..1 of the icon) ------------------------------------------------

const TOP = [0x20, 0xc9, 0x97];
const BOTTOM = [0x08, 0x7f, 0x5b];
const CANDLE = [0xff, 0xff, 0xff];

function insideRoundedSquare(x, y) {
  const m = 0.06; // margin, as macOS icons leave
  const r = 0.2;
  if (x < m || x > 1 - m || y < m || y > 1 - m) return false;
  const cx = Math.min(Math.max(x, m + r), 1 - m - r);
  const cy = Math.min(Math.max(y, m + r), 1 - m - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

// three candles: [centre x, body top, body bottom, wick top, wick bottom]
const CANDLES = [
  [0.3, 0.46, 0.72, 0.36, 0.8],
  [0.5, 0.3, 0.6, 0.2, 0.68],
  [0.7, 0.38, 0.56, 0.26, 0.66],
];
function insideCandle(x, y) {
  for (const [cx, bt, bb, wt, wb] of CANDLES) {
    if (Math.abs(x - cx) <= 0.065 && y >= bt && y <= bb) return true;
    if (Math.abs(x - cx) <= 0.018 && y >= wt && y <= wb) return true;
  }
  return false;
}

function render(size) {
  const ss = size <= 64 ? 8 : size <= 256 ? 4 : 2;
  const pixels = Buffer.alloc(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let bg = 0;
      let fg = 0;
      for (let sy = 0; sy < ss; sy++) {
        for (let sx = 0; sx < ss; sx++) {
          const x = (px + (sx + 0.5) / ss) / size;
          const y = (py + (sy + 0.5) / ss) / size;
          if (insideRoundedSquare(x, y)) {
            bg++;
            if (insideCandle(x, y)) fg++;
          }
        }
      }
      const n = ss * ss;
      const t = py / Math.max(1, size - 1);
      const base = TOP.map((c, i) => c + (BOTTOM[i] - c) * t);
      const a = bg / n;
      const f = bg === 0 ? 0 : fg / bg;
      const o = (py * size + px) * 4;
      for (let i = 0; i < 3; i++) pixels[o + i] = Math.round(base[i] * (1 - f) + CANDLE[i] * f);
      pixels[o + 3] = Math.round(a * 255);
    }
  }
  return pixels;
}

// ---- PNG ------------------------------------------------------------------------------------------

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

function png(size, rgba) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// ---- ICO (PNG entries, Windows Vista+) and ICNS (PNG entries) ------------------------------------

function ico(entries) {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(entries.length, 4);
  const dir = Buffer.alloc(16 * entries.length);
  let offset = 6 + dir.length;
  entries.forEach(([size, data], i) => {
    const o = i * 16;
    dir[o] = size >= 256 ? 0 : size;
    dir[o + 1] = size >= 256 ? 0 : size;
    dir.writeUInt16LE(1, o + 4); // planes
    dir.writeUInt16LE(32, o + 6); // bits per pixel
    dir.writeUInt32LE(data.length, o + 8);
    dir.writeUInt32LE(offset, o + 12);
    offset += data.length;
  });
  return Buffer.concat([header, dir, ...entries.map(([, data]) => data)]);
}

function icns(entries) {
  const parts = entries.map(([type, data]) => {
    const head = Buffer.alloc(8);
    head.write(type, 0, 'ascii');
    head.writeUInt32BE(data.length + 8, 4);
    return Buffer.concat([head, data]);
  });
  const body = Buffer.concat(parts);
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'ascii');
  head.writeUInt32BE(body.length + 8, 4);
  return Buffer.concat([head, body]);
}

// ---- write ------------------------------------------------------------------------------------------

const images = new Map(SIZES.map((size) => [size, png(size, render(size))]));
const img = (size) => images.get(size);

mkdirSync(join(out, 'icons'), { recursive: true });
for (const [size, data] of images) writeFileSync(join(out, 'icons', `${size}x${size}.png`), data);
writeFileSync(join(out, 'icon.png'), img(1024));
writeFileSync(join(out, 'icon.ico'), ico([16, 24, 32, 48, 64, 128, 256].map((s) => [s, img(s)])));
writeFileSync(
  join(out, 'icon.icns'),
  icns([
    ['icp4', img(16)],
    ['icp5', img(32)],
    ['icp6', img(64)],
    ['ic07', img(128)],
    ['ic08', img(256)],
    ['ic09', img(512)],
    ['ic10', img(1024)],
    ['ic11', img(32)],
    ['ic12', img(64)],
    ['ic13', img(256)],
    ['ic14', img(512)],
  ]),
);
console.log(`wrote icons (${SIZES.join(', ')} px) to ${out}`);
