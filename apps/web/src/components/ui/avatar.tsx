import { useEffect, useRef, useState } from 'react';
import styles from './avatar.module.css';

export interface AvatarProps {
  /** the picture; null or a picture that fails to load shows the initials */
  src: string | null;
  /** the person's name, for the initials */
  name: string;
  /** diameter in px (width and height are set so nothing shifts) */
  size?: number;
  /** what a screen reader hears; empty (decorative) by default because the name is shown beside it */
  alt?: string;
  className?: string;
  /** the first thing a page shows (the largest paint): fetched at once, not lazily */
  priority?: boolean;
}

/** Up to two initials from a name: "Jane Smith" → "JS". */
export function initials(name: string): string {
  const letters = name
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((part) => Array.from(part)[0]?.toUpperCase() ?? '');
  if (letters.length <= 2) return letters.join('');
  return `${letters[0]}${letters[letters.length - 1]}`;
}

/**
 * A round picture with the initials underneath: while the picture loads, and when it
 * is missing or fails, the initials show; the box never changes size.
 */
export function Avatar({ src, name, size = 96, alt = '', className, priority = false }: AvatarProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const showImage = src !== null && src !== '' && failedSrc !== src;
  const image = useRef<HTMLImageElement>(null);
  // a server-rendered picture may have failed before the page came alive (no onError then)
  useEffect(() => {
    const img = image.current;
    if (img?.complete && img.naturalWidth === 0 && src) setFailedSrc(src);
  }, [src]);
  return (
    <span
      className={[styles.avatar, className ?? ''].filter(Boolean).join(' ')}
      style={{ width: size, height: size, fontSize: Math.round(size * 0.36) }}
      data-testid="avatar"
      {...(alt ? { role: 'img', 'aria-label': alt } : {})}
    >
      <span className={styles.initials} aria-hidden="true">
        {initials(name)}
      </span>
      {showImage ? (
        <img
          ref={image}
          className={styles.image}
          src={src}
          alt=""
          width={size}
          height={size}
          loading={priority ? 'eager' : 'lazy'}
          fetchPriority={priority ? 'high' : undefined}
          decoding="async"
          onError={() => setFailedSrc(src)}
        />
      ) : null}
    </span>
  );
}
