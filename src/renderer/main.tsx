import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App.js";
import { setApi } from "./apiClient.js";
import { startSync } from "./sync.js";
import { getApi } from "./transport/index.js";
import "./styles.css";

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");
const api = getApi();
setApi(api);
const stop = startSync(api);
window.addEventListener("pagehide", stop, { once: true });
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
