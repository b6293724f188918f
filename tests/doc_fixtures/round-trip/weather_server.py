from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

server = MCPServer("weather")


@server.tool()
def get_weather(city: str, days: int = 1) -> str:
    """The weather in a city."""
    if city == "Atlantis":
        raise ToolError("no weather station in Atlantis")
    return f"{city}: sunny for {days} days"


server.run()
