import 'liveai-kit/styles.css';
import 'liveai-kit/livekit';
import { useEffect } from 'react';
import { ProbedWidget, probe } from '../ProbedWidget';

export default function Home() {
  // Marks the page hydrated (the server-rendered Start button shows before its click handler exists).
  useEffect(() => void probe(), []);
  return (
    <main>
      <h1>Widget page</h1>
      <ProbedWidget />
    </main>
  );
}
