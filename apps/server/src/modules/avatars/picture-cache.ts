import type { Picture } from './picture-source.js';

/**
 * Fetched pictures kept in memory up to `maxBytes` of bodies, the least recently used going
 * first (a Map keeps insertion order; a hit moves its entry last). A picture larger than the
 * whole budget is not kept; one stored again under the same key replaces the first (and is
 * counted once).
 */
export class PictureCache {
  private readonly entries = new Map<string, Picture>();
  private held = 0;

  constructor(private readonly maxBytes: number) {}

  /** The bytes of the bodies kept now. */
  get bytes(): number {
    return this.held;
  }

  get(key: string): Picture | undefined {
    const picture = this.entries.get(key);
    if (picture) {
      this.entries.delete(key);
      this.entries.set(key, picture);
    }
    return picture;
  }

  set(key: string, picture: Picture): void {
    if (picture.body.length > this.maxBytes) return;
    this.delete(key);
    this.entries.set(key, picture);
    this.held += picture.body.length;
    for (const oldest of this.entries.keys()) {
      if (this.held <= this.maxBytes) break;
      this.delete(oldest);
    }
  }

  clear(): void {
    this.entries.clear();
    this.held = 0;
  }

  private delete(key: string): void {
    const picture = this.entries.get(key);
    if (!picture) return;
    this.entries.delete(key);
    this.held -= picture.body.length;
  }
}
