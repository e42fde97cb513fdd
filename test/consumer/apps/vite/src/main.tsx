import 'liveai-kit/livekit';
import 'liveai-kit/styles.css';
import { createRoot } from 'react-dom/client';
import { ProbedWidget, probe } from './ProbedWidget';

probe();
createRoot(document.getElementById('root')!).render(<ProbedWidget />);
