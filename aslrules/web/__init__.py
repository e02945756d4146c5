"""`aslrules serve`: a local web page over the same situation files and the same answers.

* `service`: what the page can do, framework-free (open a file, check it, ask it as `aslrules ask
  --format json` does, replay it, save it), every request's body checked by msgspec and every
  situation by the loader;
* `app`: the HTTP routes (Bottle), the safety checks (loopback Host, JSON bodies) and the
  errors as JSON messages, never tracebacks;
* `api`: the request types and the OpenAPI description made from them;
* `rules`: the rule statements (rules-in-scope.md) and the ruling files bearing on a rule id;
* `static/`: the page itself (HTML, CSS, plain JavaScript; nothing fetched from elsewhere).

Nothing here decides anything about ASL: answers come from the KB through the CLI's own code.
"""
