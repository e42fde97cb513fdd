import { ImageSwapper } from '../images/ImageSwapper';
import { LookSheet } from './LookSheet';

/**
 * "Change look" with its image swapper: its own chunk, downloaded the first time a visitor opens it, so a widget
 * without `imageSwapper` (most) never loads the swapper and its image checks.
 */
export default function LookPanel({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <LookSheet open={open} onClose={onClose}>
      <ImageSwapper />
    </LookSheet>
  );
}
