import { useEffect, useRef, useState } from 'react';
import { prepareImage, type ImageChangeState, type ImageInput, type LiveAiError } from '../../core/index';
import { Icon } from '../controls/icons';
import { useImagePick, type PrepareImage } from './useImagePick';
import { cx, explainError, type ErrorLike } from '../format';
import { useMessages } from '../i18n/use-messages';
import { useAvatarSession, useControl, useSession } from '../../react';
import { offerLook } from './offer-look';

/**
 * Props of {@link ImageSwapperView}.
 * @public
 */
export interface ImageSwapperViewProps {
  /** Gets `{base64}` of a prepared file, `{blob}` of a file (the core crops it to 368×560 and compresses it), or `{url}`. */
  onSubmit: (input: ImageInput) => void | Promise<unknown>;
  /** Prepares a picked file for an exact 368×560 preview (e.g. the core's `prepareImage`); else a CSS center-crop preview. */
  prepare?: PrepareImage;
  /** `image.status` from the store (`image_change_*`). */
  status?: ImageChangeState['status'];
  /** The failure: a `LiveAiError` (e.g. 413 `payload_too_large`) or the `image_change_error` text. */
  error?: ErrorLike | string | null;
  /** True while the call is not active. */
  disabled?: boolean;
  className?: string;
}

/**
 * Swap the avatar's look: file, drag-and-drop, paste or URL, a 368×560 crop preview, progress and errors. Pure view.
 * @public
 */
export function ImageSwapperView({ onSubmit, prepare, status = 'idle', error, disabled = false, className }: ImageSwapperViewProps) {
  const pick = useImagePick(prepare);
  const fileRef = useRef<HTMLInputElement>(null);
  const [url, setUrl] = useState('');
  const m = useMessages();
  const busy = status === 'sending' || status === 'requested' || status === 'created';
  const failure =
    status === 'error' ? explainError(typeof error === 'string' ? { code: 'image_change_error', detail: error } : (error ?? {}), m) : null;
  const preview = pick.picked?.kind === 'file' ? pick.picked.preview : pick.picked?.url;
  // The pick last sent: "Apply new look" stays disabled for it unless that change failed; forgotten once disabled
  // (the call ended), since a new call starts from the agent's own look.
  const [applied, setApplied] = useState<unknown>(null);
  useEffect(() => {
    if (disabled) setApplied(null);
  }, [disabled]);
  const pickedKey = pick.picked?.kind === 'url' ? pick.picked.url : pick.picked?.kind === 'file' ? pick.picked.file : null;
  const alreadyApplied = pickedKey !== null && applied === pickedKey && status !== 'error';
  const apply = () => {
    const p = pick.picked;
    if (!p) return;
    setApplied(p.kind === 'url' ? p.url : p.file);
    void onSubmit(p.kind === 'url' ? { url: p.url } : p.base64 ? { base64: p.base64 } : { blob: p.file });
  };
  return (
    <div
      className={cx('liveai-images', className)}
      data-status={status}
      data-drag-over={pick.dragOver || undefined}
      onPaste={pick.zone.onPaste}
    >
      <div
        className="liveai-images__zone"
        tabIndex={0}
        role="group"
        aria-label={m.imageZone}
        onDragOver={pick.zone.onDragOver}
        onDragLeave={pick.zone.onDragLeave}
        onDrop={pick.zone.onDrop}
      >
        <div className="liveai-images__frame">{preview ? <img src={preview} alt={m.imagePreview} /> : <Icon name="image" />}</div>
        <p className="liveai-images__hint">{m.imageDropHint}</p>
        <button type="button" className="liveai-button" onClick={() => fileRef.current?.click()}>
          {m.chooseFile}
        </button>
        <input ref={fileRef} type="file" accept="image/*" hidden onChange={(e) => pick.pickFile(e.target.files?.[0])} />
      </div>
      <form className="liveai-images__url" onSubmit={(e) => (e.preventDefault(), pick.pickUrl(url))}>
        <input
          type="url"
          // An address reads left to right in every language.
          dir="ltr"
          className="liveai-input"
          aria-label={m.imageUrl}
          placeholder="https://…"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
        />
        <button type="submit" className="liveai-button">
          {m.previewImage}
        </button>
      </form>
      <button
        type="button"
        className="liveai-button liveai-button--primary"
        disabled={disabled || busy || !pick.picked || alreadyApplied}
        onClick={apply}
      >
        {m.applyLook}
      </button>
      <div className="liveai-images__status" role="status" aria-live="polite">
        {(pick.problem && m[pick.problem]) ??
          (failure ? (
            <>
              <strong>{failure.title}</strong> {failure.hint}
            </>
          ) : (
            (m.imageStatus as Partial<Record<ImageChangeState['status'], string>>)[status]
          ))}
      </div>
    </div>
  );
}

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
  const session = useAvatarSession();
  const submit = (input: ImageInput) => {
    setError(null);
    // Once applied, the stage shows this picture as the avatar's poster (e.g. on the ended screen).
    offerLook(session, input);
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
