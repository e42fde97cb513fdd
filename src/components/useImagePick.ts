import { useEffect, useState, type ClipboardEvent, type DragEvent } from 'react';

/** What the user picked: a file (with an object URL for the preview) or a public URL. */
export type PickedImage = { kind: 'file'; file: File; preview: string | null } | { kind: 'url'; url: string };

const objectUrl = (f: File): string | null => (typeof URL.createObjectURL === 'function' ? URL.createObjectURL(f) : null);
const isHttpUrl = (s: string) => /^https?:\/\/\S+$/i.test(s.trim());

/**
 * Picking an image by file input, drag-and-drop, paste (file or URL) or a typed URL.
 * Rejects non-images with a readable message; revokes object URLs it made.
 */
export function useImagePick() {
  const [picked, setPicked] = useState<PickedImage | null>(null);
  const [dragOver, setDragOver] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => () => {
    if (picked?.kind === 'file' && picked.preview) URL.revokeObjectURL?.(picked.preview);
  }, [picked]);

  const pickFile = (file: File | null | undefined) => {
    if (!file) return;
    if (!file.type.startsWith('image/')) return setProblem('Choose an image file (JPEG, PNG or WebP).');
    setProblem(null);
    setPicked({ kind: 'file', file, preview: objectUrl(file) });
  };
  const pickUrl = (url: string) => {
    if (!isHttpUrl(url)) return setProblem('Enter a public http(s) address of an image.');
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
