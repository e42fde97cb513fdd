import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => cleanup());

// What jsdom does not implement, it reports on the console ("Not implemented: …") and otherwise does nothing: the
// same nothing, without the line, so the run prints the reporter's lines only. (Tests that need play() stub it.)
if (typeof HTMLMediaElement !== 'undefined') {
  // (node-environment files run this setup too: only where there is a DOM)
  HTMLMediaElement.prototype.pause = function pause() {};
  HTMLMediaElement.prototype.load = function load() {};
  HTMLCanvasElement.prototype.getContext = function getContext() {
    return null;
  } as typeof HTMLCanvasElement.prototype.getContext;
}
