/**
 * Chroma key: draws a `<video>` into a `<canvas>` with one background colour made transparent, so an avatar rendered
 * on a green (or any solid) backdrop stands on the page itself. WebGL when the browser has it, else a 2D canvas
 * (the same rule, per pixel, on the main thread). Loaded with `import()` only by a stage that asks for it.
 */

import { HEX_COLOR } from './AvatarStage';

/**
 * How `startChromaKey` removes the background. Distances are in the colour plane without brightness (Cb, Cr).
 * @public
 */
export interface ChromaKeyOptions {
  /** The backdrop colour to remove, `#rrggbb` (default `#00ff00`, green). */
  color?: string;
  /** How close to `color` a pixel must be to become fully transparent, 0–1 (default 0.4; higher removes more). */
  similarity?: number;
  /** Width of the soft edge beyond `similarity`, where pixels fade from transparent to opaque, 0–1 (default 0.08). */
  smoothness?: number;
  /** How much of the backdrop's tint is taken out of the edges that stay (green spill on hair), 0–1 (default 0.1). */
  spill?: number;
}

/** A running chroma key. */
export interface ChromaKey {
  /** How it draws: `webgl` on the GPU, `2d` on the main thread when the browser gives no WebGL. */
  readonly mode: 'webgl' | '2d';
  /** Stops drawing (the canvas keeps its last frame). A lost WebGL context is set up again when the browser restores it. */
  stop(): void;
}

interface Params {
  key: [number, number];
  similarity: number;
  smoothness: number;
  spill: number;
}

const clamp01 = (n: number | undefined, fallback: number) => (Number.isFinite(n) ? Math.min(1, Math.max(0, n as number)) : fallback);

/** Cb and Cr (BT.601, -0.5…0.5) of an RGB colour in 0–1. */
const chroma = (r: number, g: number, b: number): [number, number] => [
  -0.1687 * r - 0.3313 * g + 0.5 * b,
  0.5 * r - 0.4187 * g - 0.0813 * b,
];

/** Parses `#rgb` / `#rrggbb`; throws a TypeError naming the value otherwise. */
function parseColor(color: string): [number, number, number] {
  const m = HEX_COLOR.exec(color.trim());
  if (!m) throw new TypeError(`chromaKey.color must be #rgb or #rrggbb, got ${JSON.stringify(color)}`);
  const hex = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join('') : m[1]!;
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255) as [number, number, number];
}

function params(options: ChromaKeyOptions): Params {
  return {
    key: chroma(...parseColor(options.color ?? '#00ff00')),
    similarity: clamp01(options.similarity, 0.4),
    smoothness: clamp01(options.smoothness, 0.08),
    spill: clamp01(options.spill, 0.1),
  };
}

/**
 * The key's alpha and how much colour to keep, from a pixel's distance to the key in (Cb, Cr): transparent within
 * `similarity`, opaque past `similarity + smoothness`; spill fades the tint out over `similarity + spill`.
 */
export function keyAlpha(distance: number, p: Pick<Params, 'similarity' | 'smoothness' | 'spill'>): { alpha: number; keep: number } {
  const step = (edge0: number, edge1: number, x: number) => {
    const t = edge1 > edge0 ? Math.min(1, Math.max(0, (x - edge0) / (edge1 - edge0))) : x < edge0 ? 0 : 1;
    return t * t * (3 - 2 * t);
  };
  return {
    alpha: step(p.similarity, p.similarity + p.smoothness, distance),
    keep: step(p.similarity, p.similarity + p.spill, distance) ** 1.5,
  };
}

const VERTEX = `attribute vec2 p; varying vec2 uv;
void main() { uv = vec2((p.x + 1.0) / 2.0, (1.0 - p.y) / 2.0); gl_Position = vec4(p, 0.0, 1.0); }`;

const FRAGMENT = `precision mediump float;
varying vec2 uv; uniform sampler2D frame; uniform vec2 key; uniform float similarity, smoothness, spill;
void main() {
  vec3 c = texture2D(frame, uv).rgb;
  vec2 cc = vec2(dot(c, vec3(-0.1687, -0.3313, 0.5)), dot(c, vec3(0.5, -0.4187, -0.0813)));
  float d = distance(cc, key);
  float a = smoothstep(similarity, similarity + smoothness, d);
  float keep = pow(smoothstep(similarity, similarity + spill, d), 1.5);
  vec3 grey = vec3(dot(c, vec3(0.2126, 0.7152, 0.0722)));
  gl_FragColor = vec4(mix(grey, c, keep) * a, a);
}`;

type Draw = (video: HTMLVideoElement) => void;
type FrameVideo = HTMLVideoElement & {
  requestVideoFrameCallback?(callback: () => void): number;
  cancelVideoFrameCallback(handle: number): void;
};

function webgl(canvas: HTMLCanvasElement, p: Params): Draw | null {
  const gl = canvas.getContext('webgl', { alpha: true, premultipliedAlpha: true, antialias: false, depth: false });
  if (!gl) return null;
  const shader = (type: number, source: string) => {
    const s = gl.createShader(type)!;
    gl.shaderSource(s, source);
    gl.compileShader(s);
    return s;
  };
  const program = gl.createProgram()!;
  gl.attachShader(program, shader(gl.VERTEX_SHADER, VERTEX));
  gl.attachShader(program, shader(gl.FRAGMENT_SHADER, FRAGMENT));
  gl.linkProgram(program);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS)) return null;
  gl.useProgram(program);
  gl.bindBuffer(gl.ARRAY_BUFFER, gl.createBuffer());
  gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 1, -1, -1, 1, 1, 1]), gl.STATIC_DRAW);
  const at = gl.getAttribLocation(program, 'p');
  gl.enableVertexAttribArray(at);
  gl.vertexAttribPointer(at, 2, gl.FLOAT, false, 0, 0);
  gl.bindTexture(gl.TEXTURE_2D, gl.createTexture());
  for (const [k, v] of [
    [gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE],
    [gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE],
    [gl.TEXTURE_MIN_FILTER, gl.LINEAR],
    [gl.TEXTURE_MAG_FILTER, gl.LINEAR],
  ] as const)
    gl.texParameteri(gl.TEXTURE_2D, k, v);
  const u = (name: string) => gl.getUniformLocation(program, name);
  gl.uniform2f(u('key'), p.key[0], p.key[1]);
  gl.uniform1f(u('similarity'), p.similarity);
  gl.uniform1f(u('smoothness'), p.smoothness);
  gl.uniform1f(u('spill'), p.spill);
  return (video) => {
    gl.viewport(0, 0, canvas.width, canvas.height);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, video);
    gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
  };
}

function canvas2d(canvas: HTMLCanvasElement, p: Params): Draw | null {
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) return null;
  return (video) => {
    const { width, height } = canvas;
    ctx.drawImage(video, 0, 0, width, height);
    const image = ctx.getImageData(0, 0, width, height);
    const px = image.data;
    for (let i = 0; i < px.length; i += 4) {
      const r = px[i]! / 255;
      const g = px[i + 1]! / 255;
      const b = px[i + 2]! / 255;
      const [cb, cr] = chroma(r, g, b);
      const { alpha, keep } = keyAlpha(Math.hypot(cb - p.key[0], cr - p.key[1]), p);
      const grey = 0.2126 * r + 0.7152 * g + 0.0722 * b;
      px[i] = (grey + (r - grey) * keep) * 255;
      px[i + 1] = (grey + (g - grey) * keep) * 255;
      px[i + 2] = (grey + (b - grey) * keep) * 255;
      px[i + 3] = alpha * 255;
    }
    ctx.putImageData(image, 0, 0);
  };
}

/**
 * Draws each new frame of `video` into `canvas` with the `color` backdrop made transparent, until `stop()`. The
 * canvas takes the video's size (px); style it like the video (e.g. `object-fit: cover`) and hide the video.
 * Returns null when the browser can draw into neither a WebGL nor a 2D canvas. Throws a `TypeError` for a `color`
 * that is not `#rgb` or `#rrggbb`; the other options are clamped to 0–1.
 */
export function startChromaKey(video: HTMLVideoElement, canvas: HTMLCanvasElement, options: ChromaKeyOptions = {}): ChromaKey | null {
  const p = params(options);
  let mode: ChromaKey['mode'] = 'webgl';
  let draw = webgl(canvas, p);
  if (!draw) {
    mode = '2d';
    draw = canvas2d(canvas, p);
  }
  if (!draw) return null;
  let paint = draw;
  let stopped = false;
  // A lost WebGL context (GPU reset, too many contexts) is restored by the browser if we ask; then set up again.
  const lost = (e: Event) => e.preventDefault();
  const restored = () => {
    paint = webgl(canvas, p) ?? (() => undefined);
    restart();
  };
  if (mode === 'webgl') {
    canvas.addEventListener('webglcontextlost', lost);
    canvas.addEventListener('webglcontextrestored', restored);
  }
  // requestVideoFrameCallback: once per new video frame (Chromium, Safari, Firefox 132+); else every animation frame.
  const frames = video as FrameVideo;
  const frameCallback = typeof frames.requestVideoFrameCallback === 'function';
  const next = () => (frameCallback ? frames.requestVideoFrameCallback(frame) : requestAnimationFrame(frame));
  const cancel = (handle: number) => (frameCallback ? frames.cancelVideoFrameCallback(handle) : cancelAnimationFrame(handle));
  let pending = 0;
  function frame() {
    if (stopped) return;
    // HAVE_CURRENT_DATA: there is a frame to draw.
    if (video.readyState >= 2 && video.videoWidth > 0) {
      if (canvas.width !== video.videoWidth || canvas.height !== video.videoHeight) {
        canvas.width = video.videoWidth;
        canvas.height = video.videoHeight;
      }
      paint(video);
    }
    pending = next();
  }
  frame();
  // A video that has no frame yet calls back only once one comes; a new stream on the element starts over.
  const restart = () => {
    if (stopped) return;
    cancel(pending);
    frame();
  };
  video.addEventListener('loadeddata', restart);
  return {
    mode,
    stop() {
      stopped = true;
      video.removeEventListener('loadeddata', restart);
      canvas.removeEventListener('webglcontextlost', lost);
      canvas.removeEventListener('webglcontextrestored', restored);
      cancel(pending);
    },
  };
}
