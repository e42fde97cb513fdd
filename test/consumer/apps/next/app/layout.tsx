import type { ReactNode } from 'react';
import 'liveai-kit/styles.css';

export const metadata = { title: 'liveai-kit on Next.js' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
