// Placeholder shell: the five panels of DESIGN.md as labelled landmarks, empty until the real UI.
export function App() {
  return (
    <div className="app">
      <header className="toolbar">
        <h1>Baton</h1>
      </header>
      <nav className="panel hierarchy" aria-label="Hierarchy">
        <h2>Hierarchy</h2>
      </nav>
      <main className="panel transcript" aria-label="Transcript">
        <h2>Transcript</h2>
      </main>
      <aside className="panel inspector" aria-label="Inspector">
        <h2>Inspector</h2>
      </aside>
      <section className="panel project" aria-label="Project">
        <h2>Project</h2>
      </section>
      <section className="panel console" aria-label="Console">
        <h2>Console</h2>
      </section>
    </div>
  );
}
