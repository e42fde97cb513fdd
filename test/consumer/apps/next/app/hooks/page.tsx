import Hooks from './Hooks';

export default function Page() {
  return (
    <main>
      <h1>Hooks page</h1>
      <Hooks />
    </main>
  );
}
