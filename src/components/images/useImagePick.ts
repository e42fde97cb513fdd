import { useEffect, useState, type ClipboardEvent, type DragEvent } from 'react';

/** What the user picked: an image blob (with an object URL for the preview, base64 once prepared) or a public URL. */
export type PickedImage = { kind: 'file'; file: Blob; preview: string | null; base64?: string } | { kind: 'url'; url: string };

/**
 * Crops/compresses a picked file, e.g. the core's `prepareImage` (368×560 JPEG, base64 under 900 KB).
 * @public
 */
export type PrepareImage = (file: Blob) => Promise<{ blob: Blob; base64?: string }>;

/** Why a pick was refused, as the key of its sentence in the message catalogue. */
export type ImageProblem = 'imageNotImage' | 'imageUnreadable' | 'imageBadUrl';

const objectUrl = (f: Blob): string | null => (typeof URL.createObjectURL === 'function' ? URL.createObjectURL(f) : null);
const isHttpUrl = (s: string) => /^https?:\/\/\S+$/i.test(s.trim());

/**
 * Picking an image by file input, drag-and-drop, paste (file or URL) or a typed URL.
 * Rejects non-images with a `problem` (the catalogue key of a readable sentence); with `prepare`, the preview shows the prepared (cropped)
 * image. Revokes object URLs it made.
 */
export function useImagePick(prepare?: PrepareImage) {
  const [picked, setPicked] = useState<PickedImage | null>(null);
  const [dragOver, setDragOver] = useState(false);
  const [problem, setProblem] = useState<ImageProblem | null>(null);

  useEffect(
    () => () => {
      if (picked?.kind === 'file' && picked.preview) URL.revokeObjectURL?.(picked.preview);
    },
    [picked],
  );

  const pickFile = (file: File | null | undefined) => {
    if (!file) return;
    if (!file.type.startsWith('image/')) return setProblem('imageNotImage');
    setProblem(null);
    setPicked({ kind: 'file', file, preview: objectUrl(file) });
    prepare?.(file).then(
      (p) =>
        setPicked((cur) =>
          cur?.kind === 'file' && cur.file === file ? { kind: 'file', file: p.blob, preview: objectUrl(p.blob), base64: p.base64 } : cur,
        ),
      (e: unknown) => {
        // Too large to send inline even compressed: keep the original; the session hosts it (uploadImage).
        if ((e as { code?: string } | null)?.code === 'payload_too_large') return;
        // Not an image after all: nothing stays picked (no broken preview, "Apply" disabled).
        setPicked((cur) => (cur?.kind === 'file' && cur.file === file ? null : cur));
        setProblem('imageUnreadable');
      },
    );
  };
  const pickUrl = (url: string) => {
    if (!isHttpUrl(url)) return setProblem('imageBadUrl');
    setProblem(null);
    setPicked({ kind: 'url', url: url.trim() });
  };
  const fromTransfer = (data: DataTransfer) => {
    const file = data.files?.[0];
    if (file) return pickFile(file);
    const text = data.getData('text/uri-list') || data.getData('text/plain');
    if (text) pickUrl(text.split('\n')[0] ?? '');
  };
  const zone = {
    onDragOver: (e: DragEvent) => {
      e.preventDefault();
      setDragOver(true);
    },
    onDragLeave: () => setDragOver(false),
    onDrop: (e: DragEvent) => {
      e.preventDefault();
      setDragOver(false);
      fromTransfer(e.dataTransfer);
    },
    onPaste: (e: ClipboardEvent) => {
      const inField = (e.target as HTMLElement).tagName === 'INPUT';
      if (e.clipboardData.files?.length || (!inField && isHttpUrl(e.clipboardData.getData('text/plain')))) {
        e.preventDefault();
        fromTransfer(e.clipboardData);
      }
    },
  };
  return { picked, dragOver, problem, pickFile, pickUrl, zone, clear: () => setPicked(null) };
}
