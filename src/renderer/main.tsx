import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App.js";
import { setApi } from "./apiClient.js";
import { startSync } from "./sync.js";
import { getApi } from "./transport/index.js";
import { startTheme } from "./theme/theme.js";
import "./styles.css";

// Before anything is drawn, sign-in notice included: no flash of the other theme. It follows the
// system for the page's whole life.
startTheme();

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");
const root = container;

void getApi().then((connected) => {
  if (!connected.ok) {
    // Web mode without a usable link: say what to do (as text: the message may echo the server).
    const notice = document.createElement("p");
    notice.setAttribute("role", "alert");
    notice.className = "sign-in-notice";
    notice.textContent = connected.message;
    root.replaceChildren(notice);
    return;
  }
  setApi(connected.api);
  const stop = startSync(connected.api);
  window.addEventListener("pagehide", stop, { once: true });
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
