"""A fake GitHub REST API on 127.0.0.1 that records every request.

It serves the endpoints the gate calls (repository, pull request, check runs create / update /
list for a ref, commit statuses, issue comments list / create / update, labels add / remove)
under `/api/v3`, as GitHub Enterprise Server does, so the client is pointed at it the way
`GITHUB_API_URL` points it at a GHES host. Every `url` it returns and every pagination `Link`
uses its own base, or PyGithub refuses to follow them.
"""
from __future__ import annotations

import dataclasses
import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, quote, unquote, urlencode, urlsplit

REPO = "octo/widgets"


@dataclasses.dataclass
class Request:
    method: str
    path: str
    query: dict[str, str]
    body: Any
    authorization: str


class FakeGitHub:
    def __init__(self) -> None:
        self.requests: list[Request] = []
        self.pulls: dict[int, str] = {}
        self.authors: dict[int, str] = {}  # a pull request's author ("agent-bot" if unset)
        self.reviews: dict[int, list[dict[str, Any]]] = {}  # by pull request, oldest first
        self.permissions: dict[str, str] = {}  # a login's permission ("none" if unset)
        self.opened: list[dict[str, Any]] = []  # the bodies of POST /pulls
        self.check_runs: dict[int, dict[str, Any]] = {}
        self.statuses: dict[str, list[dict[str, Any]]] = {}
        self.comments: dict[int, dict[str, Any]] = {}
        self.labels: dict[int, list[str]] = {}
        self.forbidden: list[tuple[str, str]] = []  # (method, regex on the path)
        self.per_page_max = 100
        self._next_id = 1000
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.origin = f"http://127.0.0.1:{self._server.server_address[1]}"
        self.api_url = f"{self.origin}/api/v3"
        self._repo_url = f"{self.api_url}/repos/{REPO}"
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,),
                                        daemon=True)

    def __enter__(self) -> FakeGitHub:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)

    # --- set-up and inspection, for tests ---
    def new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    def add_check_run(self, sha: str, name: str, status: str = "completed",
                      conclusion: str | None = "success") -> dict[str, Any]:
        run_id = self.new_id()
        run = {"id": run_id, "name": name, "head_sha": sha, "status": status,
               "conclusion": conclusion, "url": f"{self._repo_url}/check-runs/{run_id}",
               "output": {"title": None, "summary": None, "annotations_count": 0},
               "annotations": []}
        self.check_runs[run_id] = run
        return run

    def add_status(self, sha: str, context: str, state: str) -> None:
        self.statuses.setdefault(sha, []).insert(0, {
            "id": self.new_id(), "context": context, "state": state,
            "url": f"{self._repo_url}/statuses/{sha}"})

    def add_comment(self, issue: int, body: str) -> int:
        comment_id = self.new_id()
        self.comments[comment_id] = {
            "id": comment_id, "body": body, "issue": issue,
            "url": f"{self._repo_url}/issues/comments/{comment_id}",
            "issue_url": f"{self._repo_url}/issues/{issue}"}
        return comment_id

    def review(self, pr: int, login: str, state: str, commit_id: str) -> None:
        """A review as GitHub records it, on the head SHA `commit_id`."""
        self.reviews.setdefault(pr, []).append({
            "id": self.new_id(), "user": {"login": login}, "state": state,
            "commit_id": commit_id, "body": ""})

    def calls(self, method: str, pattern: str) -> list[Request]:
        return [r for r in self.requests
                if r.method == method and re.fullmatch(pattern, r.path)]

    def writes(self) -> list[Request]:
        return [r for r in self.requests if r.method != "GET"]

    # --- the API ---
    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def _serve(self) -> None:
                split = urlsplit(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                body = json.loads(raw) if raw else None
                query = {k: v[0] for k, v in parse_qs(split.query).items()}
                request = Request(self.command, unquote(split.path), query, body,
                                  self.headers.get("Authorization", ""))
                with fake._lock:
                    fake.requests.append(request)
                    status, payload, headers = fake._route(request)
                data = json.dumps(payload).encode() if payload is not None else b""
                self.send_response(status)
                self.send_header("Content-Type", "application/json; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                for key, value in headers.items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PATCH = do_DELETE = _serve

        return Handler

    def _route(self, r: Request) -> tuple[int, Any, dict[str, str]]:
        prefix = f"/api/v3/repos/{REPO}"
        if not r.path.startswith(prefix):
            return 404, {"message": "Not Found"}, {}
        path = r.path[len(prefix):]
        for method, pattern in self.forbidden:
            if method == r.method and re.fullmatch(pattern, path):
                return 403, {"message": "Resource not accessible by integration"}, {}
        for method, pattern, handler in self._routes():
            match = re.fullmatch(pattern, path)
            if method == r.method and match:
                return handler(r, *match.groups())
        return 404, {"message": f"Not Found: {r.method} {path}"}, {}

    def _routes(self) -> list[tuple[str, str, Any]]:
        return [
            ("GET", r"", lambda r: (200, self._repo(), {})),
            ("GET", r"/pulls/(\d+)", self._pull),
            ("GET", r"/pulls/(\d+)/reviews", lambda r, n: self._page(
                r, self.reviews.get(int(n), []))),
            ("GET", r"/collaborators/([^/]+)/permission", lambda r, login: (200, {
                "permission": self.permissions.get(login, "none"),
                "user": {"login": login}}, {})),
            ("POST", r"/pulls", self._create_pull),
            ("POST", r"/check-runs", self._create_run),
            ("GET", r"/check-runs/(\d+)", lambda r, i: self._run_or_404(int(i))),
            ("PATCH", r"/check-runs/(\d+)", self._update_run),
            ("GET", r"/commits/([0-9a-f]+)", lambda r, sha: (200, {
                "sha": sha, "url": f"{self._repo_url}/commits/{sha}"}, {})),
            ("GET", r"/commits/([0-9a-f]+)/check-runs", self._runs_for_ref),
            ("GET", r"/commits/([0-9a-f]+)/status", self._combined_status),
            ("GET", r"/commits/([0-9a-f]+)/statuses", lambda r, sha: self._page(
                r, self.statuses.get(sha, []))),
            ("GET", r"/issues/(\d+)", lambda r, n: (200, self._issue(int(n)), {})),
            ("GET", r"/issues/(\d+)/comments", lambda r, n: self._page(r, [
                self._public(c) for c in self.comments.values() if c["issue"] == int(n)])),
            ("POST", r"/issues/(\d+)/comments", self._create_comment),
            ("GET", r"/issues/comments/(\d+)", self._get_comment),
            ("PATCH", r"/issues/comments/(\d+)", self._edit_comment),
            ("GET", r"/issues/(\d+)/labels", lambda r, n: (200, self._labels(int(n)), {})),
            ("POST", r"/issues/(\d+)/labels", self._add_labels),
            ("DELETE", r"/issues/(\d+)/labels/(.+)", self._remove_label),
        ]

    def _repo(self) -> dict[str, Any]:
        owner, name = REPO.split("/")
        return {"id": 1, "name": name, "full_name": REPO, "owner": {"login": owner},
                "url": self._repo_url}

    def _pull(self, r: Request, number: str) -> tuple[int, Any, dict[str, str]]:
        n = int(number)
        if n not in self.pulls:
            return 404, {"message": "Not Found"}, {}
        return 200, {"number": n, "url": f"{self._repo_url}/pulls/{n}", "state": "open",
                     "user": {"login": self.authors.get(n, "agent-bot")},
                     "head": {"sha": self.pulls[n], "ref": "change"},
                     "base": {"sha": "0" * 40, "ref": "main"}}, {}

    def _create_pull(self, r: Request) -> tuple[int, Any, dict[str, str]]:
        """A new pull request, its head SHA unknown to the fake (`opened` records the body)."""
        n = max(self.pulls, default=0) + 1
        self.pulls[n] = "0" * 40
        self.opened.append(r.body)
        return 201, {"number": n, "url": f"{self._repo_url}/pulls/{n}",
                     "html_url": f"{self.origin}/{REPO}/pull/{n}", "state": "open",
                     "title": r.body["title"], "body": r.body.get("body"),
                     "head": {"sha": "0" * 40, "ref": r.body["head"]},
                     "base": {"sha": "0" * 40, "ref": r.body["base"]}}, {}

    def _issue(self, n: int) -> dict[str, Any]:
        return {"number": n, "url": f"{self._repo_url}/issues/{n}",
                "labels": self._labels(n)}

    def _labels(self, n: int) -> list[dict[str, Any]]:
        return [{"name": name, "url": f"{self._repo_url}/labels/{quote(name)}"}
                for name in self.labels.get(n, [])]

    def _public_run(self, run: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in run.items() if k != "annotations"}

    def _run_or_404(self, run_id: int) -> tuple[int, Any, dict[str, str]]:
        run = self.check_runs.get(run_id)
        return (200, self._public_run(run), {}) if run else (404, {"message": "Not Found"}, {})

    def _apply(self, run: dict[str, Any], body: dict[str, Any]) -> None:
        for key in ("name", "status", "conclusion", "details_url", "head_sha"):
            if key in body:
                run[key] = body[key]
        output = body.get("output")
        if output:
            run["annotations"] += output.get("annotations", [])
            run["output"] = {"title": output.get("title"), "summary": output.get("summary"),
                             "annotations_count": len(run["annotations"])}

    def _create_run(self, r: Request) -> tuple[int, Any, dict[str, str]]:
        run = self.add_check_run(r.body["head_sha"], r.body["name"],
                                 r.body.get("status", "queued"), None)
        self._apply(run, r.body)
        return 201, self._public_run(run), {}

    def _update_run(self, r: Request, run_id: str) -> tuple[int, Any, dict[str, str]]:
        run = self.check_runs.get(int(run_id))
        if run is None:
            return 404, {"message": "Not Found"}, {}
        self._apply(run, r.body)
        return 200, self._public_run(run), {}

    def _runs_for_ref(self, r: Request, sha: str) -> tuple[int, Any, dict[str, str]]:
        runs = [self._public_run(run) for run in self.check_runs.values()
                if run["head_sha"] == sha
                and r.query.get("check_name", run["name"]) == run["name"]]
        status, items, headers = self._page(r, runs)
        return status, {"total_count": len(runs), "check_runs": items}, headers

    def _combined_status(self, r: Request, sha: str) -> tuple[int, Any, dict[str, str]]:
        latest: dict[str, dict[str, Any]] = {}
        for status in self.statuses.get(sha, []):
            latest.setdefault(status["context"], status)
        return 200, {"state": "pending", "sha": sha, "total_count": len(latest),
                     "statuses": list(latest.values()),
                     "url": f"{self._repo_url}/commits/{sha}/status"}, {}

    def _public(self, comment: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in comment.items() if k != "issue"}

    def _create_comment(self, r: Request, n: str) -> tuple[int, Any, dict[str, str]]:
        comment_id = self.add_comment(int(n), r.body["body"])
        return 201, self._public(self.comments[comment_id]), {}

    def _get_comment(self, r: Request, i: str) -> tuple[int, Any, dict[str, str]]:
        comment = self.comments.get(int(i))
        return (200, self._public(comment), {}) if comment else (404, {"message": "Nope"}, {})

    def _edit_comment(self, r: Request, i: str) -> tuple[int, Any, dict[str, str]]:
        comment = self.comments.get(int(i))
        if comment is None:
            return 404, {"message": "Not Found"}, {}
        comment["body"] = r.body["body"]
        return 200, self._public(comment), {}

    def _add_labels(self, r: Request, n: str) -> tuple[int, Any, dict[str, str]]:
        names = r.body["labels"] if isinstance(r.body, dict) else r.body
        current = self.labels.setdefault(int(n), [])
        current += [name for name in names if name not in current]
        return 200, self._labels(int(n)), {}

    def _remove_label(self, r: Request, n: str, name: str) -> tuple[int, Any, dict[str, str]]:
        current = self.labels.get(int(n), [])
        if name not in current:
            return 404, {"message": "Label does not exist"}, {}
        current.remove(name)
        return 200, self._labels(int(n)), {}

    def _page(self, r: Request, items: list[Any]) -> tuple[int, Any, dict[str, str]]:
        """One page of `items`, with a `Link` to the next on the fake's own base."""
        per_page = min(int(r.query.get("per_page", 30)), self.per_page_max)
        page = int(r.query.get("page", 1))
        chunk = items[(page - 1) * per_page: page * per_page]
        headers = {}
        if page * per_page < len(items):
            query = urlencode({**r.query, "page": page + 1})
            headers["Link"] = f'<{self.origin}{quote(r.path)}?{query}>; rel="next"'
        return 200, chunk, headers
