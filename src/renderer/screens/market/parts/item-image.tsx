/**
 * An item, sticker or keychain image: loaded lazily, in a fixed box (a slow image never moves the
 * layout), and replaced by a drawn placeholder when it cannot load (offline, or a blocked host).
 */
import { useState } from 'react';
import { IconPhotoOff } from '@tabler/icons-react';

export function ItemImage({ src, alt, size, testId }: { src: string | null | undefined; alt: string; size: number; testId?: string }) {
  const [failed, setFailed] = useState(false);
  const usable = Boolean(src) && /^(https:|data:)/.test(src as string) && !failed;
  return (
    <span className="sd-img" style={{ width: size, height: size }} data-testid={testId} data-loaded={usable ? 'image' : 'fallback'} title={alt}>
      {usable ? (
        <img src={src as string} alt={alt} loading="lazy" decoding="async" referrerPolicy="no-referrer" onError={() => setFailed(true)} />
      ) : (
        <IconPhotoOff size={Math.round(size * 0.45)} color="var(--sd-muted)" aria-label={`${alt} (image unavailable)`} />
      )}
    </span>
  );
}
