// The main window's size and position, remembered between runs in a small
// JSON file under the app's userData folder. A file that is missing, damaged
// or from a larger screen setup gives the defaults (Electron keeps a window
// on a visible display when asked for a position off-screen).
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface WindowBounds {
  readonly x?: number;
  readonly y?: number;
  readonly width: number;
  readonly height: number;
  readonly maximized: boolean;
}

export const DEFAULT_BOUNDS: WindowBounds = { width: 1440, height: 900, maximized: false };
export const MIN_SIZE = { width: 960, height: 600 };

const isInt = (x: unknown): x is number => Number.isInteger(x) && Math.abs(x as number) < 100_000;

export function loadWindowBounds(file: string): WindowBounds {
  let saved: Record<string, unknown>;
  try {
    saved = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return DEFAULT_BOUNDS;
  }
  if (typeof saved !== 'object' || saved === null || !isInt(saved.width) || !isInt(saved.height)) return DEFAULT_BOUNDS;
  const position = isInt(saved.x) && isInt(saved.y) ? { x: saved.x, y: saved.y } : {};
  return {
    ...position,
    width: Math.max(MIN_SIZE.width, saved.width),
    height: Math.max(MIN_SIZE.height, saved.height),
    maximized: saved.maximized === true,
  };
}

export function saveWindowBounds(file: string, bounds: WindowBounds): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, JSON.stringify(bounds));
  renameSync(tmp, file);
}
