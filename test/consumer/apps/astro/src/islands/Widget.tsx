import 'liveai-kit/livekit';
import 'liveai-kit/styles.css';
import { ProbedWidget, probe } from './ProbedWidget';

export default function Widget() {
  if (typeof window !== 'undefined') probe();
  return <ProbedWidget />;
}
