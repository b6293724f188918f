"""JSON-Schema plumbing every part of the core shares: pointers, ``$ref``, copies, limits.

``pointer`` builds and reads JSON pointers and resolves local references; ``toolkit`` knows
where subschemas sit, previews and copies JSON values and names the nesting limits;
``types`` names JSON data in signatures (``JsonSchema``, ``JsonObject``, ``JsonValue``) and
what ``diff`` reads from a tool (``ToolSchemaLike``); ``given`` parses and checks a schema a
person hands over.
"""
