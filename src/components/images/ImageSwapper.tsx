import { useState } from 'react';
import { type ImageInput, type LiveAiError, prepareImage } from '../../core/index';
import { useControl, useSession } from '../../react';
import { ImageSwapperView, type ImageSwapperViewProps } from './ImageSwapperView';

/**
 * Props of {@link ImageSwapper}.
 * @public
 */
export type ImageSwapperProps = Pick<ImageSwapperViewProps, 'className'> & {
  /** Use the core's `prepareImage` for an exact 368×560 preview and inline upload (default true). */
  prepare?: boolean;
};

/**
 * Changes the avatar's look during a call (`update-image`), with progress from the
 * `image_change_*` events and errors explained (a 413 keeps its code; event errors their text).
 * @public
 */
export function ImageSwapper({ prepare = true, className }: ImageSwapperProps) {
  const { phase } = useSession();
  const { updateImage, image } = useControl();
  const [error, setError] = useState<LiveAiError | null>(null);
  const submit = (input: ImageInput) => {
    setError(null);
    return updateImage(input).catch((e: LiveAiError) => setError(e));
  };
  return (
    <ImageSwapperView
      className={className}
      onSubmit={submit}
      prepare={prepare ? prepareImage : undefined}
      // Progress and "New look applied." belong to the call: once it is over, the swapper starts afresh.
      status={phase === 'active' ? image.status : 'idle'}
      error={phase === 'active' && image.status === 'error' ? (error ?? image.error ?? null) : null}
      disabled={phase !== 'active'}
    />
  );
}
