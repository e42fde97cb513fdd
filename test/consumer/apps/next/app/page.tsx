import Widget from './Widget';

export default function Page() {
  return (
    <main>
      <h1>Widget page</h1>
      <Widget />
    </main>
  );
}
