import sharp from 'sharp';
import { AVATAR_HEIGHT_PX, AVATAR_WIDTH_PX } from '../core/index';

const W = AVATAR_WIDTH_PX;
const H = AVATAR_HEIGHT_PX;
/**
 * Face landmarks of the built-in images (px in the 368×560 image), matching the media avatar's default face
 * layout: eyes at 38 % height, 18 % of the width either side of the centre; mouth at 63 % height, centred.
 * @public
 */
export const FACE_LANDMARKS = {
  eyeY: Math.round(H * 0.38),
  leftEyeX: Math.round(W / 2 - W * 0.18),
  rightEyeX: Math.round(W / 2 + W * 0.18),
  eyeRx: Math.round(W * 0.065),
  eyeRy: Math.round(H * 0.028),
  mouthY: Math.round(H * 0.63),
  mouthX: Math.round(W / 2),
  mouthHalfWidth: Math.round(W * 0.085),
} as const;

const PALETTES = [
  { bg1: '#7dd3fc', bg2: '#c4b5fd', skin: '#f6d2b8', hair: '#5b3a29', shirt: '#2563eb' },
  { bg1: '#fde68a', bg2: '#fca5a5', skin: '#a3e635', hair: '#166534', shirt: '#f97316' },
  { bg1: '#a7f3d0', bg2: '#93c5fd', skin: '#d9a07a', hair: '#1f2937', shirt: '#059669' },
  { bg1: '#e5e7eb', bg2: '#cbd5e1', skin: '#f1c9a5', hair: '#9ca3af', shirt: '#6b7280' },
];

/** Palette of each built-in agent, so they look different. */
const BUILTIN_PALETTE: Record<string, number> = { 'agent-demo': 0, 'agent-cartoon': 1, 'agent-bob': 2, 'agent-broke': 3 };
/** FNV-1a 32-bit hash of a string. */
const hash = (s: string) => [...s].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0, 2166136261);

/**
 * SVG source of a friendly illustrated face for `name` (colours vary with the name). Size 368×560.
 * @public
 */
export function faceSvg(name: string): string {
  const p = PALETTES[(BUILTIN_PALETTE[name] ?? hash(name)) % PALETTES.length]!;
  const { eyeY, leftEyeX, rightEyeX, eyeRx, eyeRy, mouthY, mouthX, mouthHalfWidth: mw } = FACE_LANDMARKS;
  const cx = W / 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">
  <defs>
  <linearGradient id="bg" x1="0" y1="0" x2="0" y2="1">
    <stop offset="0" stop-color="${p.bg1}"/>
    <stop offset="1" stop-color="${p.bg2}"/>
  </linearGradient></defs>
  <rect width="${W}" height="${H}" fill="url(#bg)"/>
  <path d="M${cx - 150} ${H} Q${cx - 140} ${H - 110} ${cx} ${H - 120} Q${cx + 140} ${H - 110} ${cx + 150} ${H} Z" fill="${p.shirt}"/>
  <rect x="${cx - 32}" y="${mouthY + 40}" width="64" height="70" rx="20" fill="${p.skin}"/>
  <ellipse cx="${cx}" cy="${eyeY + 40}" rx="128" ry="142" fill="${p.skin}"/>
  <path d="M${cx - 132} ${eyeY + 6} Q${cx - 136} ${eyeY - 132} ${cx} ${eyeY - 114} Q${cx + 136} ${eyeY - 132} ${cx + 132} ${eyeY + 6}
    Q${cx + 104} ${eyeY - 62} ${cx} ${eyeY - 66} Q${cx - 104} ${eyeY - 62} ${cx - 132} ${eyeY + 6} Z" fill="${p.hair}"/>
  <ellipse cx="${cx - 128}" cy="${eyeY + 50}" rx="14" ry="24" fill="${p.skin}"/>
  <ellipse cx="${cx + 128}" cy="${eyeY + 50}" rx="14" ry="24" fill="${p.skin}"/>
  <path d="M${leftEyeX - 26} ${eyeY - 30} q26 -12 52 0" stroke="${p.hair}" stroke-width="7" fill="none" stroke-linecap="round"/>
  <path d="M${rightEyeX - 26} ${eyeY - 30} q26 -12 52 0" stroke="${p.hair}" stroke-width="7" fill="none" stroke-linecap="round"/>
  <ellipse cx="${leftEyeX}" cy="${eyeY}" rx="${eyeRx}" ry="${eyeRy}" fill="#ffffff"/>
  <ellipse cx="${rightEyeX}" cy="${eyeY}" rx="${eyeRx}" ry="${eyeRy}" fill="#ffffff"/>
  <circle cx="${leftEyeX}" cy="${eyeY}" r="9" fill="#1f2937"/>
  <circle cx="${rightEyeX}" cy="${eyeY}" r="9" fill="#1f2937"/>
  <circle cx="${leftEyeX + 3}" cy="${eyeY - 3}" r="3" fill="#ffffff"/>
  <circle cx="${rightEyeX + 3}" cy="${eyeY - 3}" r="3" fill="#ffffff"/>
  <path d="M${cx} ${eyeY + 20} q-10 38 0 44 q8 4 14 -2" stroke="#b07a5a" stroke-width="4" fill="none" stroke-linecap="round"/>
  <circle cx="${cx - 74}" cy="${mouthY - 22}" r="16" fill="#f08a8a" opacity="0.35"/>
  <circle cx="${cx + 74}" cy="${mouthY - 22}" r="16" fill="#f08a8a" opacity="0.35"/>
  <path d="M${mouthX - mw} ${mouthY - 4} Q${mouthX} ${mouthY + 22} ${mouthX + mw} ${mouthY - 4}"
    stroke="#9f1239" stroke-width="6" fill="none" stroke-linecap="round"/>
</svg>`;
}

/**
 * Renders the face of `name` as a 368×560 PNG (bytes).
 * @public
 */
export async function renderFacePng(name: string): Promise<Buffer> {
  return sharp(Buffer.from(faceSvg(name)))
    .png()
    .toBuffer();
}

/** `/liveai/assets/<name>.png` → `<name>`, else null. */
export function assetNameOf(imageUrl: string): string | null {
  const m = /^\/liveai\/assets\/([A-Za-z0-9._-]+)\.png$/.exec(imageUrl);
  return m ? m[1]! : null;
}

/** Renders the built-in images the seed refers to (`/liveai/assets/<name>.png`), once at start. */
export async function renderAssets(imageUrls: string[]): Promise<Map<string, Buffer>> {
  const names = [...new Set(imageUrls.map(assetNameOf).filter((n): n is string => n !== null))];
  const pngs = await Promise.all(names.map(renderFacePng));
  return new Map(names.map((n, i) => [n, pngs[i]!]));
}
