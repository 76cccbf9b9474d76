// usage: npx tsx /tmp/i47v/crop.ts in.png out.png x y w h [scale]
import { chromium } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { chromiumLaunchOptions } from '../tests/helpers/chromium.ts';
const [inp, out, x, y, w, h, s = '2'] = process.argv.slice(2);
const b = await chromium.launch(chromiumLaunchOptions);
const p = await b.newPage({ viewport: { width: Number(w) * Number(s), height: Number(h) * Number(s) } });
const data = readFileSync(inp).toString('base64');
await p.setContent(`<body style="margin:0;overflow:hidden"><img style="image-rendering:pixelated;transform-origin:0 0;transform:scale(${s}) translate(-${x}px,-${y}px)" src="data:image/png;base64,${data}"></body>`);
await p.screenshot({ path: out });
await b.close();
